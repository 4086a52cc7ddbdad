// Elements without innerHTML (nothing the server or a player wrote is ever parsed as markup), and the page's
// own words in the reader's language. Everything the rules say comes translated from the server.

/**
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...unknown} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of /** @type {unknown[]} */ (children).flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const LANGUAGES = { en: "English", pl: "Polski", ru: "Русский" };

/** @type {Record<string, Record<string, string>>} */
const WORDS = {
  en: {
    title: "Rulekeeper table", language: "Page language", new_campaign: "New campaign", system: "Rule system",
    create: "Create the campaign", gm_link: "Your GM link (keep it: it is your seat)", invite: "Invite a player",
    player_name: "Player's name", invite_button: "Invite", join_link: "Join link for", copy: "Copy", copied: "Copied",
    players: "Players", join_qr: "QR code of the join link for", new_character: "Your character", create_character: "Create the character",
    characters: "Characters", table: "The table", whose_move: "Whose move", until: "until", nobody: "Nobody is awaited",
    your_moves: "Your moves", other_move: "Another move", choose: "Choose…", open: "Open", send: "Make the move",
    cancel: "Cancel", dice: "Dice faces rolled at the table", dice_hint: "In the order the move rolls them, e.g. 4, 6",
    log: "Event log", live: "Live", reconnecting: "Reconnecting…", refused: "Refused", gm: "GM", player: "Player",
    you_are: "You are", comma_separated: "Comma-separated", remove: "Remove", not_json: "not valid JSON",
    details: "All of it", no_token: "This link has no seat token.", loading: "Loading…", character: "Character",
    moved_on: "The table moved on while you were filling this in; it now shows what happened. Your move was not made: check it and send it again.",
    done: "Done", options: "Options", yes: "yes", no: "no",
    dice_sessions: "Verifiable dice", close_session: "Close the dice session", check: "Check in this browser",
    verified: "Verified in this browser: every die and the commitment", not_verified: "NOT verified",
    session: "Session", dice_count: "dice", no_crypto: "This browser checks only on https or localhost",
    session_open: "open", session_closed: "closed", session_unverifiable: "unverifiable", session_unrevealed: "unrevealed",
  },
  pl: {
    title: "Stół Rulekeeper", language: "Język strony", new_campaign: "Nowa kampania", system: "System gry",
    create: "Utwórz kampanię", gm_link: "Twój link MG (zachowaj go: to twoje miejsce)", invite: "Zaproś gracza",
    player_name: "Imię gracza", invite_button: "Zaproś", join_link: "Link do dołączenia dla", copy: "Kopiuj",
    copied: "Skopiowano", players: "Gracze", join_qr: "Kod QR linku do dołączenia dla", new_character: "Twoja postać", create_character: "Utwórz postać",
    characters: "Postacie", table: "Stół", whose_move: "Czyj ruch", until: "do", nobody: "Nikt nie jest oczekiwany",
    your_moves: "Twoje ruchy", other_move: "Inny ruch", choose: "Wybierz…", open: "Otwórz", send: "Wykonaj ruch",
    cancel: "Anuluj", dice: "Wyniki kości rzuconych przy stole", dice_hint: "W kolejności rzutów ruchu, np. 4, 6",
    log: "Dziennik zdarzeń", live: "Na żywo", reconnecting: "Ponowne łączenie…", refused: "Odrzucono", gm: "MG",
    player: "Gracz", you_are: "Jesteś", comma_separated: "Oddzielone przecinkami", remove: "Usuń",
    not_json: "to nie jest poprawny JSON", details: "Wszystko", no_token: "Ten link nie ma tokenu miejsca.",
    loading: "Wczytywanie…", character: "Postać",
    moved_on: "Przy stole coś się wydarzyło, gdy wypełniałeś formularz; stół pokazuje już, co. Twój ruch nie został wykonany: sprawdź go i wyślij ponownie.",
    done: "Gotowe", options: "Opcje", yes: "tak", no: "nie",
    dice_sessions: "Weryfikowalne kości", close_session: "Zamknij sesję kości", check: "Sprawdź w tej przeglądarce",
    verified: "Sprawdzone w tej przeglądarce: każda kość i zobowiązanie", not_verified: "NIE zgadza się",
    session: "Sesja", dice_count: "kości", no_crypto: "Ta przeglądarka sprawdza tylko przez https lub localhost",
    session_open: "otwarta", session_closed: "zamknięta", session_unverifiable: "nie do sprawdzenia",
    session_unrevealed: "nieujawniona",
  },
  ru: {
    title: "Стол Rulekeeper", language: "Язык страницы", new_campaign: "Новая кампания", system: "Система правил",
    create: "Создать кампанию", gm_link: "Ваша ссылка ведущего (сохраните её: это ваше место)",
    invite: "Пригласить игрока", player_name: "Имя игрока", invite_button: "Пригласить",
    join_link: "Ссылка для входа:", copy: "Копировать", copied: "Скопировано", players: "Игроки",
    join_qr: "QR-код ссылки для входа:",
    new_character: "Ваш персонаж", create_character: "Создать персонажа", characters: "Персонажи", table: "Стол",
    whose_move: "Чей ход", until: "до", nobody: "Никто не ожидается", your_moves: "Ваши ходы",
    other_move: "Другой ход", choose: "Выберите…", open: "Открыть", send: "Сделать ход", cancel: "Отмена",
    dice: "Значения кубиков, брошенных за столом", dice_hint: "В порядке бросков хода, например 4, 6",
    log: "Журнал событий", live: "В эфире", reconnecting: "Переподключение…", refused: "Отказано", gm: "Ведущий",
    player: "Игрок", you_are: "Вы", comma_separated: "Через запятую", remove: "Удалить",
    not_json: "это не корректный JSON", details: "Всё целиком", no_token: "В этой ссылке нет токена места.",
    loading: "Загрузка…", character: "Персонаж",
    moved_on: "Пока вы заполняли форму, за столом произошли изменения; стол уже показывает их. Ваш ход не сделан: проверьте его и отправьте снова.",
    done: "Готово", options: "Параметры", yes: "да", no: "нет",
    dice_sessions: "Проверяемые кубики", close_session: "Закрыть сессию кубиков", check: "Проверить в браузере",
    verified: "Проверено в этом браузере: каждый кубик и обязательство", not_verified: "НЕ сходится",
    session: "Сессия", dice_count: "кубиков", no_crypto: "Браузер проверяет только по https или на localhost",
    session_open: "открыта", session_closed: "закрыта", session_unverifiable: "не проверить", session_unrevealed: "не раскрыта",
  },
};

let current = "en";
/** @param {string} lang */
export function setLanguage(lang) { current = WORDS[lang] ? lang : "en"; document.documentElement.lang = current; }
export function language() { return current; }
/** @param {string} key */
export function t(key) { return WORDS[current][key] ?? WORDS.en[key] ?? key; }
/** @type {Record<string, Promise<{ FIELDS: Record<string, string>, VALUES: Record<string, string> }>>} */
const loading = {};
/** @type {Record<string, { FIELDS: Record<string, string>, VALUES: Record<string, string> }>} */
const labels = {};

/**
 * The forms' words in `lang` (labels/<lang>.js), loaded before a page in that language draws a form: a page in
 * English loads none.
 * @param {string} lang
 */
export async function loadLabels(lang) {
  if (lang === "en" || labels[lang]) return;
  loading[lang] ??= import(`./labels/${lang}.js`);
  labels[lang] = await loading[lang];
}

/**
 * A form field's label in the reader's language (the schema names its fields in English only).
 * @param {string} name the GraphQL field's name
 * @param {string} english
 */
export function fieldLabel(name, english) { return labels[current]?.FIELDS[name] ?? english; }
/**
 * A value a form offers (an enum value of the schema) in the reader's language; a language code as it is.
 * @param {string} value
 */
export function valueLabel(value) {
  if (value in LANGUAGES) return value;
  return labels[current]?.VALUES[value] ?? value.replace(/_/g, " ");
}
