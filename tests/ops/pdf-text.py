#!/usr/bin/env python3
"""Checks a proposal PDF's text as a reader gets it (poppler's pdftotext):
every word inside the page box, no option id, raw key, TOML path, file
name, seed or fallback code point; the English report has no Chinese. The
reference list gives the cited works' own titles and addresses (file names
with underscores, host names), so ids and keys are not looked for there.

usage: pdf-text.py FILE.pdf LANG SCENARIO.toml"""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

pdf, lang, scenario = sys.argv[1], sys.argv[2], sys.argv[3]
problems = []

bbox = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True, check=True).stdout
root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", bbox).replace('xmlns="http://www.w3.org/1999/xhtml"', ""))
for n, page in enumerate(root.iter("page"), 1):
    w, h = float(page.get("width")), float(page.get("height"))
    for word in page.iter("word"):
        x0, y0, x1, y1 = (float(word.get(k)) for k in ("xMin", "yMin", "xMax", "yMax"))
        if x0 < -0.5 or y0 < -0.5 or x1 > w + 0.5 or y1 > h + 0.5:
            problems.append(f"page {n}: outside the page box ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}): {word.text}")

text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True, check=True).stdout
# Ids that look like identifiers (a hyphen, an underscore or a digit); an id
# that is a plain word ("mix", "flat") is also ordinary prose.
ids = [i for i in re.findall(r'^\s*id\s*=\s*"([^"]+)"', open(scenario, encoding="utf-8").read(), re.M)
       if re.search(r"[-_0-9]", i)]
# Product names their makers spell with an underscore.
KEPT = {"torch_npu", "torch_mlu", "torch_gcu", "torch_musa"}
lines = text.splitlines()
# The reference list: from its heading (the last line that is only the heading;
# the contents line has a page number) to the notices' heading.
heads = [i for i, l in enumerate(lines) if l.strip() in ("References", "参考文献")]
start = heads[-1] if heads else len(lines)
end = next((i for i in range(start, len(lines)) if lines[i].strip() in ("Notices", "声明")), len(lines))
for n, line in enumerate(lines):
    cited_work = start <= n < end
    for oid in [] if cited_work else ids:
        if re.search(r"(?<![\w-])" + re.escape(oid) + r"(?![\w-])", line):
            problems.append(f"option id {oid}: {line.strip()}")
    for m in re.finditer(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z_]+(?:\.[a-z_\-]+){2,}\b", line):
        if m.group(0) not in KEPT and not cited_work:
            problems.append(f"raw key {m.group(0)}: {line.strip()}")
    if ".toml" in line:
        problems.append(f"file name: {line.strip()}")
    if re.search(r"\bseed\b|种子", line, re.I):
        problems.append(f"seed: {line.strip()}")
    if "[U+" in line or "\ufffd" in line:
        problems.append(f"a character the font lacks: {line.strip()}")
    if lang == "en" and re.search(r"[\u3400-\u4dbf\u4e00-\u9fff]", line):
        problems.append(f"Chinese in the English report: {line.strip()}")

for p in problems[:40]:
    print(p)
sys.exit(1 if problems else 0)
