// Types of the vendored qrcode-generator, the part of its API the page calls: the page's type check (web/) reads
// them in place of qrcode.mjs, which its authors check.
interface QRCode {
  addData(data: string): void;
  make(): void;
  createDataURL(cellSize?: number, margin?: number): string;
}
declare function qrcode(typeNumber: number, errorCorrectionLevel: "L" | "M" | "Q" | "H"): QRCode;
export default qrcode;
