"""Each join link on the GM's page comes with a QR code for a phone's camera (issue 18), drawn in the browser by
the vendored qrcode-generator: the image has an accessible name, is a data: URL (the link and its token are never
sent anywhere to be drawn), and decodes (zxing-cpp, from the pixels the browser shows) to the very link."""

from __future__ import annotations

import zxingcpp
from playwright.sync_api import expect
from tablekit import create_campaign, invite, page_url

PIXELS = """img => {
  const c = document.createElement("canvas");
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const rgba = g.getImageData(0, 0, c.width, c.height).data;
  const grey = [];
  for (let i = 0; i < rgba.length; i += 4) grey.push(rgba[i]);
  return { width: c.width, height: c.height, grey };
}"""


def test_the_join_link_s_qr_code_is_named_and_decodes_to_the_link(served, new_page):
    gm = new_page()
    create_campaign(gm, page_url(served), system="stepdice", name="Skirmish")
    link = invite(gm, "Ala")
    qr = gm.get_by_role("img", name="QR code of the join link for Ala", exact=True)
    expect(qr).to_be_visible()
    assert qr.get_attribute("src").startswith("data:image/gif;base64,")
    image = qr.evaluate(PIXELS)
    pixels = memoryview(bytes(image["grey"])).cast("B", (image["height"], image["width"]))
    decoded = [b.text for b in zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode)]
    assert decoded == [link] and "#campaign=" in link and "token=rk_" in link
    assert not gm.errors, gm.errors
