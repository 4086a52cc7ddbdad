// Each of the page's operations (service/web/static/graphql/operations.graphql) by name: [result, variables].
// The page's GraphQL client (static/api.js) is typed by it; an operation missing here fails the type check.
import type * as G from "./graphql";

export interface Operations {
  Systems: [G.SystemsQuery, G.SystemsQueryVariables];
  Campaign: [G.CampaignQuery, G.CampaignQueryVariables];
  StepDiceTable: [G.StepDiceTableQuery, G.StepDiceTableQueryVariables];
  TrikusTable: [G.TrikusTableQuery, G.TrikusTableQueryVariables];
  DangerPoolTable: [G.DangerPoolTableQuery, G.DangerPoolTableQueryVariables];
  IskraTable: [G.IskraTableQuery, G.IskraTableQueryVariables];
  ActionDeckTable: [G.ActionDeckTableQuery, G.ActionDeckTableQueryVariables];
  CreateCampaign: [G.CreateCampaignMutation, G.CreateCampaignMutationVariables];
  InvitePlayer: [G.InvitePlayerMutation, G.InvitePlayerMutationVariables];
  CreateCharacter: [G.CreateCharacterMutation, G.CreateCharacterMutationVariables];
  Act: [G.ActMutation, G.ActMutationVariables];
  SetPlayerLanguage: [G.SetPlayerLanguageMutation, G.SetPlayerLanguageMutationVariables];
  DiceSessions: [G.DiceSessionsQuery, G.DiceSessionsQueryVariables];
  CloseDiceSession: [G.CloseDiceSessionMutation, G.CloseDiceSessionMutationVariables];
  DiceSessionVerification: [G.DiceSessionVerificationQuery, G.DiceSessionVerificationQueryVariables];
  CampaignEvents: [G.CampaignEventsSubscription, G.CampaignEventsSubscriptionVariables];
  InputType: [G.InputTypeQuery, G.InputTypeQueryVariables];
}

/** The table query of each rule system, by the system's id. */
export type TableQuery = G.StepDiceTableQuery | G.TrikusTableQuery | G.DangerPoolTableQuery | G.IskraTableQuery
  | G.ActionDeckTableQuery;
