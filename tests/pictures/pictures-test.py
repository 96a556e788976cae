#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""topo --svg and check --format html from every kind of source, checked by
structure against the report's own facts and rendered in a real browser.

1. Structure: for snapshots, lspci captures, a sysfs copy, a sosreport
   (built here from a VM run's lspci -vvv) and the H200 VM guest of
   ../shared when present, the SVG holds a node of every function topo
   selects and of every bridge above it (ids of docs/pictures.md), a link
   into each, every port a drawn pair's redirect list names classed
   'redirect', and exactly the links whose LnkSta is below both ends'
   LnkCap (computed here from the registers) classed 'downgraded'.
2. Browser: Debian's chromium (headless) renders SVGs and HTML pages to
   PNG (not blank: many colours, enough ink) and dumps the page's DOM,
   which must hold every finding's message and remedy of check --json.
   A machine of 8 GPUs, 8 NICs and 4 switches (built here) must draw at
   most 1,400 px wide.
--update-docs writes the reference screenshots of docs/pictures/.
"""
import copy
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(ROOT, "user", "pcieaudit-cli")
# Relative to ROOT, where main() runs: the pictures' titles name them so.
FIX = os.path.join("tests", "fixtures")
SHARED = os.path.join(ROOT, "..", "shared", "fixtures")
SVG_NS = "{http://www.w3.org/2000/svg}"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def cli(*args, ok=(0, 1, 8)):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    if p.returncode not in ok:
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def fn_id(bdf):
    d, b, rest = bdf.split(":")
    dev, fn = rest.split(".")
    return f"fn-{d}-{b}-{dev}-{fn}"


def parse_bdf(s):
    return s if s.count(":") == 2 else "0000:" + s


def svg_elements(path):
    """id -> set of classes, for every element with an id."""
    tree = ET.parse(path)
    out = {}
    for el in tree.iter():
        if "id" in el.attrib:
            out[el.attrib["id"]] = set(el.attrib.get("class", "").split())
    return tree, out


def link_below(dev, up):
    """LnkSta below the smaller of both ends' LnkCap (speed or width)."""
    lk = dev.get("link")
    if not lk or lk.get("lnkcap") is None or lk.get("lnksta") is None:
        return None
    cs, cw = lk["lnkcap"] & 0xF, lk["lnkcap"] >> 4 & 0x3F
    if up and up.get("link") and up["link"].get("lnkcap") is not None:
        cs = min(cs, up["link"]["lnkcap"] & 0xF)
        cw = min(cw, up["link"]["lnkcap"] >> 4 & 0x3F)
    ss, sw = lk["lnksta"] & 0xF, lk["lnksta"] >> 4 & 0x3F
    if not sw:
        return None
    return ss < cs or sw < cw


def check_svg(name, src, svg):
    """src: the source's options. The report (report --json) is the model
    the drawing must show; the oracle's arithmetic is done here."""
    rep = json.loads(cli("report", "--json", *src, ok=(0,)))
    topo = json.loads(cli("--json", "topo", *src, ok=(0,)))
    devs = {d["bdf"]: d for d in rep["devices"]}
    try:
        _, ids = svg_elements(svg)
    except ET.ParseError as e:
        fail(f"{name}: SVG does not parse: {e}")
        return
    sel = [d["bdf"] for d in topo["devices"]]
    drawn = set()
    for bdf in sel:
        b = bdf
        for _ in range(64):
            drawn.add(b)
            up = devs.get(b, {}).get("upstream")
            if not up or up not in devs:
                break
            b = up
    for bdf in sorted(drawn):
        cls = ids.get(fn_id(bdf))
        if cls is None or "fn" not in cls:
            fail(f"{name}: no node {fn_id(bdf)} for {bdf}")
            continue
        link = ids.get("link-" + fn_id(bdf)[3:])
        if link is None:
            fail(f"{name}: no link into {bdf}")
            continue
        d = devs[bdf]
        if d.get("pcie_type") in ("root_port", "downstream_port") or \
           (d.get("upstream") is None) or d.get("pcie_type") is None:
            continue
        up = devs.get(d.get("upstream"))
        if up and up.get("pcie_type") == "upstream_port" and d.get("pcie_type") == "downstream_port":
            continue
        # A function other than 0 of a multi-function device speaks
        # through function 0's link (pa_link_owner); judge that one.
        owner = devs.get(bdf[:-1] + "0", d) if d.get("multifunction") else d
        want = link_below(owner, devs.get(owner.get("upstream")))
        if want is not None and want != ("downgraded" in link):
            fail(f"{name}: link into {bdf} downgraded={want} by its registers, "
                 f"classes {sorted(link)}")
        if want is None and "unknown" not in link and "pci" not in link:
            lk = owner.get("link")
            if not lk or lk.get("lnksta") is None:
                fail(f"{name}: link into {bdf} has no registers but is not drawn unknown")
    redirecting = set()
    # The pairs topo loads for its selection: those the picture draws.
    pairs = topo.get("p2p") or []
    selset = set(sel)
    for p in pairs:
        if p["a"] in selset and p["b"] in selset and p["a"] != p["b"]:
            redirecting.update(p.get("redirect") or [])
            if p.get("redirect"):
                for hop in (p.get("hops_a") or []) + (p.get("hops_b") or []):
                    lk = ids.get("link-" + fn_id(hop)[3:])
                    if lk is not None and "redirect-path" not in lk:
                        fail(f"{name}: link into {hop} on a redirected path not marked")
    for bdf in redirecting:
        cls = ids.get(fn_id(bdf), set())
        if "redirect" not in cls:
            fail(f"{name}: redirecting port {bdf} not classed redirect ({sorted(cls)})")
    for i, cls in ids.items():
        if i.startswith("fn-") and "redirect" in cls:
            bdf = "{}:{}:{}.{}".format(*i[3:].split("-"))
            if bdf not in redirecting:
                fail(f"{name}: {bdf} classed redirect, no drawn pair names it")
    if "legend" not in ids or "fabric" not in ids:
        fail(f"{name}: no legend or fabric id")
    return len(drawn), len(redirecting)


def sources(tmp):
    """(name, options) of every kind of source."""
    out = []
    for f in sorted(os.listdir(os.path.join(FIX, "snapshots"))):
        if f.endswith(".json"):
            out.append((f, ["--input", os.path.join(FIX, "snapshots", f)]))
    for f in sorted(os.listdir(os.path.join(FIX, "lspci"))):
        if f.endswith(".lspci"):
            out.append((f, ["--lspci", os.path.join(FIX, "lspci", f)]))
    out.append(("h200 sysfs", ["--sysfs", os.path.join(FIX, "h200", "sysfs")]))
    # A sosreport of a VM run: proc/bus/pci from its configuration
    # space, lspci -nnvv as sos stores it.
    run = os.path.join(FIX, "vm-runs", "p2p-switch", "snap1")
    sos = os.path.join(tmp, "sosreport-p2p-switch")
    os.makedirs(os.path.join(sos, "sos_commands", "pci"))
    shutil.copy(os.path.join(run, "lspci.txt"),
                os.path.join(sos, "sos_commands", "pci", "lspci_-nnvv"))
    for line in open(os.path.join(run, "config.hex")):
        bdf, hexs = line.split()
        dom, bus, df = bdf.split(":")
        d = os.path.join(sos, "proc", "bus", "pci", bus)
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, df), "wb").write(bytes.fromhex(hexs))
    out.append(("sosreport", ["--lspci", sos]))
    guest = os.path.join(SHARED, "h200-vm-guest")
    if os.path.isdir(guest):
        out.append(("h200-vm-guest", ["--sysfs", guest]))
    else:
        print("SKIPPED: ../shared/fixtures/h200-vm-guest (not beside the checkout)")
    return out


def big_machine(path):
    """8 GPUs and 8 NICs below 4 switches on 2 NUMA nodes, from the
    gpudirect-fail snapshot's functions (ACS redirects on every switch)."""
    base = json.load(open(os.path.join(FIX, "snapshots", "gpudirect-fail.json")))
    by = {d["bdf"]: d for d in base["devices"]}
    devs, groups = [], []

    def add(tmpl, bdf, up, numa):
        d = copy.deepcopy(by[tmpl])
        d["bdf"], d["upstream"], d["numa_node"] = bdf, up, numa
        d["iommu"]["group"] = len(devs) + 1
        devs.append(d)
        groups.append({"id": len(devs), "devices": [bdf], "other_members": 0})

    bus = 0
    for s in range(4):
        root = 0x00 if s < 2 else 0x80
        numa = 0 if s < 2 else 1
        rp = f"0000:{root:02x}:{s % 2 + 1:02x}.0"
        add("0000:00:01.0", rp, None, numa)
        bus = root + 1 + (s % 2) * 16
        upb = f"0000:{bus:02x}:00.0"
        add("0000:01:00.0", upb, rp, numa)
        for k in range(4):
            dp = f"0000:{bus + 1:02x}:{k:02x}.0"
            add("0000:02:00.0" if k % 2 == 0 else "0000:02:01.0", dp, upb, numa)
            ep = f"0000:{bus + 2 + k:02x}:00.0"
            add("0000:03:00.0" if k % 2 == 0 else "0000:04:00.0", ep, dp, numa)
    snap = {k: base[k] for k in ("schema_version", "info", "host")}
    snap["info"] = dict(base["info"], device_count=len(devs), group_count=len(groups))
    snap["devices"], snap["groups"] = devs, groups
    json.dump(snap, open(path, "w"))


def chromium():
    for c in ("chromium", "chromium-browser"):
        if shutil.which(c):
            return c
    return None


def browse(browser, url, png=None, height=900, dom=False):
    # The old headless mode starts in a few seconds where
    # the new one takes 25 on a busy machine.
    args = [browser, "--headless=old", "--disable-gpu", "--no-sandbox",
            "--disable-dev-shm-usage",
            "--hide-scrollbars", "--disable-extensions", "--no-first-run",
            f"--window-size=1400,{height}"]
    if png:
        args.append("--screenshot=" + png)
    if dom:
        args.append("--dump-dom")
    args.append(url)
    p = subprocess.run(args, capture_output=True, text=True, timeout=90,
                       env=dict(os.environ, HOME=os.environ.get("TMPDIR", "/tmp")))
    if p.returncode:
        raise RuntimeError(f"chromium {url}: exit {p.returncode}: {p.stderr[-500:]}")
    return p.stdout


def not_blank(name, png):
    from PIL import Image
    im = Image.open(png).convert("RGB")
    small = im.resize((im.width // 4, im.height // 4))
    colours = len(set(small.getdata()))
    px = list(small.getdata())
    ink = sum(1 for r, g, b in px if r + g + b < 600) / len(px)
    if colours < 8 or ink < 0.01:
        fail(f"{name}: blank picture ({colours} colours, {ink:.1%} ink)")
    return colours, ink


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.scripts, self.external = [], 0, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts += 1
        for k in ("src", "href"):
            if a.get(k) and not a[k].startswith("#"):
                self.external.append(a[k])
        if tag == "link":
            self.external.append(a.get("href", "link"))

    def handle_data(self, data):
        self.parts.append(data)


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def check_dom(name, dom, findings):
    t = Text()
    t.feed(dom)
    text = norm(" ".join(t.parts))
    if t.scripts or t.external:
        fail(f"{name}: page loads {t.external} or has {t.scripts} scripts")
    if "@import" in dom or "url(" in dom:
        fail(f"{name}: page refers to an external resource")
    for f in findings:
        if norm(f["message"]) not in text:
            fail(f"{name}: finding {f['id']} not in the DOM: {f['message'][:80]}")
        rem = f.get("remedy")
        if rem and norm(rem["value"]) not in text:
            fail(f"{name}: remedy of {f['id']} not in the DOM")
        for d in f.get("devices") or []:
            if d not in text:
                fail(f"{name}: device {d} of {f['id']} not in the DOM")
    if "<svg" not in dom:
        fail(f"{name}: no picture in the page")


def width_px(svg):
    m = re.search(r'<svg width="([0-9.]+)pt"', open(svg).read())
    return float(m.group(1)) * 4 / 3 if m else 1e9


def main():
    try:
        import PIL  # noqa: F401
    except ImportError:
        # A python3 of its own (pyenv) without Debian's python3-pil.
        if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
            os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    update = "--update-docs" in sys.argv
    os.chdir(ROOT)
    tmp = tempfile.mkdtemp(prefix="pictures-")
    try:
        n = 0
        for name, src in sources(tmp):
            svg = os.path.join(tmp, "s.svg")
            if os.path.exists(svg):
                os.unlink(svg)
            if subprocess.run([CLI, "topo", *src], capture_output=True).returncode == 9:
                # Refused as input (docs/inputs.md): no picture either.
                p = subprocess.run([CLI, "topo", *src, "--svg", svg], capture_output=True)
                if p.returncode != 9 or os.path.exists(svg):
                    fail(f"{name}: refused input, but topo --svg exit {p.returncode}")
                continue
            cli("topo", *src, "--svg", svg, ok=(0,))
            r = check_svg(name, src, svg)
            if r:
                n += 1
        print(f"structure: {n} sources drawn, every function, link, redirect and downgrade checked")
        big = os.path.join(tmp, "big.json")
        big_machine(big)
        cli("topo", "--input", big, "--svg", os.path.join(tmp, "big.svg"), ok=(0,))
        check_svg("8 GPUs, 8 NICs, 4 switches", ["--input", big], os.path.join(tmp, "big.svg"))
        w = width_px(os.path.join(tmp, "big.svg"))
        if w > 1400:
            fail(f"8 GPUs, 8 NICs, 4 switches: {w:.0f} px wide, over 1,400")
        print(f"8 GPUs, 8 NICs, 4 switches: {w:.0f} px wide")
        # Input is text, never markup: a command line planted with tags.
        evil = json.load(open(os.path.join(FIX, "snapshots", "gpudirect-fail.json")))
        evil["host"]["cmdline"] += ' x="<script>alert(1)</script>&<b>'
        ep = os.path.join(tmp, "evil.json")
        json.dump(evil, open(ep, "w"))
        page = cli("check", "--input", ep, "--format", "html")
        t = Text()
        t.feed(page)
        if t.scripts or "<b>" in page or '<script>alert(1)</script>&<b>' not in norm(" ".join(t.parts)):
            fail("a planted command line is not escaped in the page")
        br = chromium()
        if not br:
            fail("chromium missing (Debian's chromium package)")
            return
        try:
            from PIL import Image  # noqa: F401
        except ImportError:
            fail("python3-pil missing")
            return
        # Each browser start costs seconds: make check renders the big
        # machine's picture and one page; --update-docs all of docs/pictures.
        shots = [("big-8gpu-8nic", ["--input", big])]
        if update:
            shots.append(("gpu-server", ["--input", os.path.join(FIX, "snapshots", "gpu-server.json")]))
        for name, src in shots:
            svg = os.path.join(tmp, name + ".svg")
            png = os.path.join(tmp, name + ".png")
            cli("topo", *src, "--svg", svg, ok=(0,))
            h = min(2000, max(300, int(float(re.search(r'height="([0-9.]+)pt"', open(svg).read()).group(1)) * 4 / 3) + 20))
            browse(br, "file://" + svg, png, height=h)
            c, ink = not_blank(name + ".svg", png)
            print(f"{name}.svg: 1400x{h} PNG, {c} colours, {ink:.1%} ink")
            if update:
                save_doc(png, f"{name}.png")
        pages = [("gpudirect-fail", ["--input", os.path.join(FIX, "snapshots", "gpudirect-fail.json")])]
        if update:
            pages.append(("n1sdp-pex8749", ["--lspci", os.path.join(FIX, "lspci", "n1sdp-pex8749-xxx.lspci")]))
        for name, src in pages:
            page = os.path.join(tmp, name + ".html")
            cli("check", *src, "--format", "html", "--output", page)
            findings = json.loads(cli("check", *src, "--format", "json"))["findings"]
            dom = browse(br, "file://" + page, dom=True)
            check_dom(name + ".html", dom, findings)
            png = os.path.join(tmp, name + "-check.png")
            browse(br, "file://" + page, png, height=1400)
            c, ink = not_blank(name + ".html", png)
            print(f"{name}.html: {len(findings)} findings in the DOM, PNG {c} colours, {ink:.1%} ink")
            if update:
                save_doc(png, f"{name}-check.png")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print(f"pictures: {len(failures)} failures")
        sys.exit(1)
    print("pictures: all passed")


def save_doc(png, name):
    from PIL import Image
    out = os.path.join(ROOT, "docs", "pictures", name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    Image.open(png).convert("RGB").quantize(colors=64).save(out, optimize=True)


if __name__ == "__main__":
    main()
