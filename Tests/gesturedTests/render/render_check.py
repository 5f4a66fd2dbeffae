"""Checks of a `gestured render` SVG (RenderTests runs them with Debian's python3).

usage:
  render_check.py xml SVG
      Parses SVG with python's XML parser (it must be well-formed) and prints, as JSON, the
      embedded replay data (the element with id gestured-replay) and every text node's text.
  render_check.py browser SVG PNG WORD...
      Opens SVG in Debian's headless Chromium (through python3-selenium), then checks that it
      renders (the document is an SVG of non-zero size, its paths and texts have boxes, and a
      screenshot, written to PNG, is not blank) and that each WORD is the text of a rendered
      text node. Prints "ok: …" for each check; the first failure exits 1.
"""

import json
import os
import struct
import sys
import xml.etree.ElementTree as ElementTree
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def check_xml(path):
    tree = ElementTree.parse(path)
    root = tree.getroot()
    assert root.tag == SVG + "svg", root.tag
    data = None
    for element in root.iter():
        if element.get("id") == "gestured-replay":
            data = json.loads(element.text)
    assert data is not None, "no element with id gestured-replay"
    texts = ["".join(element.itertext()) for element in root.iter(SVG + "text")]
    print(json.dumps({"data": data, "texts": texts}))


def png_pixels(png):
    """The distinct colours of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat, header = 8, b"", None
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        chunk = png[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        for i in range(0, stride, channels * 7):
            colours.add(bytes(line[i:i + 3]))
        previous = line
    return width, height, colours


def check_browser(path, png_path, words):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    for binary in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]:
        if os.path.exists(binary):
            options.binary_location = binary
            break
    driver_path = next((p for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(p)), None)
    driver = webdriver.Chrome(options=options, service=Service(driver_path) if driver_path else None)
    try:
        driver.get("file://" + os.path.abspath(path))
        rendered = driver.execute_script("""
            const root = document.documentElement;
            const box = root.getBoundingClientRect();
            const texts = [...document.querySelectorAll("text")]
                .filter((t) => t.getComputedTextLength() > 0 && t.getBBox().width > 0)
                .map((t) => t.textContent);
            const lines = [...document.querySelectorAll("polyline")];
            const drawn = lines.filter((p) => p.getBBox().width + p.getBBox().height > 0);
            const data = JSON.parse(document.getElementById("gestured-replay").textContent);
            return {tag: root.tagName, width: box.width, height: box.height, texts: texts, polylines: lines.length, drawn: drawn.length,
                    touches: data.touches.length};
        """)
        assert rendered["tag"] == "svg", rendered["tag"]
        assert rendered["width"] > 0 and rendered["height"] > 0, rendered
        print("ok: Chromium opened an SVG of %d × %d" % (rendered["width"], rendered["height"]))
        assert rendered["polylines"] == rendered["touches"] > 0 and rendered["drawn"] > 0, rendered
        print("ok: %d touch paths, one per touch of the embedded data, %d of them laid out with a size (the others are taps)"
              % (rendered["polylines"], rendered["drawn"]))
        texts = rendered["texts"]
        for word in words:
            assert any(word in text for text in texts), "%r is in no rendered text node" % word
        print("ok: %d words found in %d rendered text nodes" % (len(words), len(texts)))
        png = driver.get_screenshot_as_png()
        with open(png_path, "wb") as file:
            file.write(png)
        width, height, colours = png_pixels(png)
        assert len(colours) > 8, "the screenshot has %d colours: blank" % len(colours)
        print("ok: the screenshot (%d × %d) has %d colours" % (width, height, len(colours)))
    finally:
        driver.quit()


if __name__ == "__main__":
    if sys.argv[1] == "xml":
        check_xml(sys.argv[2])
    elif sys.argv[1] == "browser":
        check_browser(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
