"""The workbook recalculates in a real spreadsheet program.

For every example scenario (both languages), LibreOffice opens the exported
workbook, recalculates every formula and writes the Comparison sheet (the
second, after the Summary): its
totals equal `suanli evaluate`'s to the cent. Then, for a few scenarios, one
money input and the discount rate are changed on the Inputs sheet (as a user
would, in the cell) and in a copy of the scenario file: after LibreOffice
recalculates, the totals equal `suanli evaluate` of the edited scenario.

Usage: workbook_recalc.py SUANLI WORKDIR SCENARIO_DIR
"""

import csv
import json
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

suanli, work, scenarios = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
work.mkdir(parents=True, exist_ok=True)

# (scenario, the line of the file to change, its new text, the value on the
# Inputs sheet, which of the cells with that value (the bridging price comes
# first, before the rental price it equals), its new value); the discount
# rate goes from 0.08 to 0.115.
EDITS = [
    ("a100-8x-buy-vs-rent.toml", "capex_per_server = 1_500_000", "capex_per_server = 1_800_000", 1500000, 0, 1800000),
    ("billing-mix.toml", "fx = { USD = 7.1106 }", "fx = { USD = 7.35 }", 7.1106, 0, 7.35),
    ("ascend-910b-cluster.toml", "price_per_accel_hour = 8.56", "price_per_accel_hour = 9.4", 8.56, 1, 9.4),
    ("domestic-card-full.toml", "price_per_accel_hour = 0.8\n", "price_per_accel_hour = 0.95\n", 0.8, 1, 0.95),
]

# LibreOffice keeps a file's cached results unless told to recalculate on load.
profile = work / "lo-profile"
(profile / "user").mkdir(parents=True, exist_ok=True)
(profile / "user" / "registrymodifications.xcu").write_text(
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"'
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">'
    "<value>0</value></prop></item>\n</oor:items>\n"
)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def evaluate(scenario):
    out = json.loads(run(suanli, "evaluate", "--format", "json", str(scenario)))
    return [(o["total_nominal"], o["total_npv"]) for o in out["options"]]


def set_input(xlsx, old, nth, new, rate):
    """Writes `new` over the Inputs sheet's value `old` and the discount rate, as a user would."""
    with zipfile.ZipFile(xlsx) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    # The Inputs sheet is the third (after Summary and Comparison).
    name = "xl/worksheets/sheet3.xml"
    xml = parts[name].decode()
    hits = []

    def swap(m):
        if float(m.group(3)) == old:
            hits.append(m.group(1))
            if len(hits) == nth + 1:
                return f"{m.group(1)}{m.group(2)}<v>{new}</v>"
        return m.group(0)

    xml = re.sub(r'(<c r="B(?:[3-9]|\d\d+)"[^>]*>)()<v>([^<]+)</v>', swap, xml)
    assert len(hits) > nth, f"no input of value {old} on the Inputs sheet"
    xml, n = re.subn(r'(<c r="B2"[^>]*>)<v>[^<]+</v>', rf"\g<1><v>{rate}</v>", xml)
    assert n == 1, "the discount rate is not in B2"
    parts[name] = xml.encode()
    with zipfile.ZipFile(xlsx, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in parts.items():
            z.writestr(n, data)


def recalculated(files, outdir):
    """Each workbook's second sheet (the comparison) after LibreOffice recalculates it."""
    outdir.mkdir(exist_ok=True)
    # CSV filter options: comma, quote, UTF-8, from line 1, …, sheet 2.
    csv_sheet_2 = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,2"
    run("soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", csv_sheet_2,
        "--outdir", str(outdir), *map(str, files))
    tables = {}
    for f in files:
        # One sheet exported is written `<file>-<sheet name>.csv`.
        (path,) = [p for p in outdir.glob(f.stem + "-*.csv") if p.stem[len(f.stem) + 1:] in ("Comparison", "方案比较")]
        with open(path, encoding="utf-8", errors="replace") as fh:
            rows = list(csv.reader(fh))[1:]
        number = lambda t: float(t.replace(",", "")) if t.strip() else None
        tables[f] = [(number(r[2]), number(r[3])) for r in rows if r and len(r) > 3]
    return tables


problems = []
checked = 0


def compare(what, sheet, engine):
    global checked
    if len(sheet) != len(engine):
        problems.append(f"{what}: {len(sheet)} options in the sheet, {len(engine)} in the engine")
        return
    for i, ((sn, sv), (en, ev)) in enumerate(zip(sheet, engine)):
        checked += 1
        for label, a, b in (("nominal", sn, en), ("NPV", sv, ev)):
            if a is None or abs(a - b) > 0.011:
                problems.append(f"{what}, option {i + 1}: {label} {a} in the sheet, {b} from the engine")


# Every example, as exported and recalculated.
files, engine = [], {}
for scenario in sorted(scenarios.glob("*.toml")):
    for lang in ("en", "zh"):
        xlsx = work / f"{scenario.stem}-{lang}.xlsx"
        run(suanli, "--lang", lang, "export", str(scenario), "--xlsx", str(xlsx))
        files.append(xlsx)
        engine[xlsx] = evaluate(scenario)
# Edited: the input in the sheet and the same input in a copy of the scenario.
for name, line, replacement, old, nth, new in EDITS:
    text = (scenarios / name).read_text()
    assert line in text, f"{name}: no line {line!r}"
    edited = work / f"edited-{name}"
    edited.write_text(text.replace(line, replacement, 1).replace("discount_rate_annual = 0.08", "discount_rate_annual = 0.115", 1))
    xlsx = work / f"edited-{pathlib.Path(name).stem}.xlsx"
    run(suanli, "export", str(scenarios / name), "--xlsx", str(xlsx))
    set_input(xlsx, old, nth, new, 0.115)
    files.append(xlsx)
    engine[xlsx] = evaluate(edited)
    if engine[xlsx] == evaluate(scenarios / name):
        problems.append(f"{name}: the edit changed nothing, so it proves nothing")
for f, sheet in recalculated(files, work / "recalculated").items():
    compare(f.name, sheet, engine[f])
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{len(files)} workbooks recalculated by LibreOffice, {checked} options' totals equal the engine's to the cent")
