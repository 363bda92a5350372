#!/usr/bin/env python3
"""Validate the bundled catalogue CSVs in this directory (Python 3.11, standard library only).

Run from anywhere:  python3 data/catalog/check.py
Exit status 0 when every check passes, 1 otherwise. Warnings do not fail the run.

What is checked (see README.md for the conventions behind each rule):
  * file format: UTF-8 without BOM, LF line ends, one record per line, no trailing
    spaces, final newline, canonical RFC 4180 minimal quoting, header exactly as specified;
  * ids: present, unique, lowercase kebab-case (sources: article | gpu:S<n> | prices:S<n> | cn:<KEY> | bench:/spec:/feed:…);
  * foreign keys: offers -> providers/accelerators, efficiency/scaling/export_controls ->
    accelerators, every source id -> sources.csv (with the prefix matching the sheet);
  * provenance: non-empty source and confidence on every row; confidence uses the tag
    vocabulary of the cited sheet(s); as_of (or date) is a valid YYYY / YYYY-MM / YYYY-MM-DD,
    or empty with a note that says why ("as_of empty" / "date empty");
  * numbers parse, are finite and non-negative (and in range where a range applies);
  * enumerated columns hold allowed values;
  * nodes.csv: enums (scale_up, scale_out, multi_node, gpudirect_rdma), integers, (provider_id, instance)
    present in offers.csv with the same accelerator_id and listed once, A/B/C/X tags, no bandwidth under
    a not_stated fabric; fx.csv: one dated, sourced CNY rate per non-CNY offer currency.
  * a quoted range keeps its high end in price_high, above price; no offer citing only china-prices.md (cn:)
    is stored with its X tag;
  * minimum counts: 25 accelerators, 15 providers, 80 offers, 25 offers of domestic accelerators, 4 workload classes.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

HEADERS: dict[str, list[str]] = {
    "sources.csv": ["id", "sheet", "title", "url", "date"],
    "feeds/sources.csv": ["id", "sheet", "title", "url", "date"],
    "accelerators.csv": [
        "id", "vendor", "vendor_zh", "name", "name_zh", "domestic", "memory_gb", "memory_type",
        "memory_bandwidth_gbps", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp32_tflops", "int8_tops", "tdp_w",
        "interconnect", "interconnect_gbps", "form_factor", "software_stack", "framework_adapter",
        "release", "export_status_cn", "export_status_since", "export_status_notes", "list_price",
        "list_price_currency", "list_price_as_of", "unpublished", "variants", "source", "as_of", "confidence", "notes",
    ],
    "export_controls.csv": ["id", "date", "jurisdiction", "rule", "affected", "effect", "source", "confidence", "notes"],
    "providers.csv": [
        "id", "name", "name_zh", "country", "kind", "billing_modes", "bare_metal", "dedicated_gpu",
        "encryption_in_transit", "certifications", "security_notes", "source", "as_of", "confidence", "notes",
    ],
    "offers.csv": [
        "id", "provider_id", "accelerator_id", "instance", "region", "billing_mode",
        "accelerators_per_instance", "price", "price_high", "price_unit", "currency", "upfront", "interconnect",
        "as_of", "source", "confidence", "notes",
    ],
    "efficiency.csv": [
        "id", "accelerator_id", "workload_class", "ratio", "reference_accelerator_id", "method",
        "source", "as_of", "confidence", "notes",
    ],
    "measurements.csv": [
        "id", "suite", "suite_version", "case", "variant", "submitter", "workload_class", "model", "precision", "sequence_length",
        "batch", "accelerators", "nodes", "parallel", "framework", "framework_version", "inference_scenario",
        "accelerator_id", "system", "metric", "value", "published_as", "mfu_peak_tflops", "mfu_peak_location", "kept_out", "location",
        "source", "as_of", "confidence", "notes",
    ],
    "scaling.csv": ["id", "setup", "accelerator_id", "accelerators", "efficiency", "interconnect", "source", "as_of", "confidence", "notes"],
    "nodes.csv": [
        "id", "provider_id", "instance", "accelerator_id", "accelerators_per_node", "scale_up", "scale_up_gbps", "scale_out",
        "scale_out_gbps", "gpudirect_rdma", "multi_node", "max_cluster_accelerators", "source", "as_of", "confidence", "notes",
    ],
    "fx.csv": ["currency", "cny_per_unit", "as_of", "source", "confidence", "notes"],
}

# `benchmarks` (measured results read from public suites' files) and `specs` (datasheets and
# spec tables) were added after the two fact sheets; they use the gpu-facts tag vocabulary.
# `nodes` (node and fabric facts per instance: provider docs, vendor system docs) uses the provider-prices vocabulary.
# `china-prices` (cn:) is shared/research/china-prices.md (2026-12-04): domestic accelerators and Chinese clouds,
# tagged A/B/C/X like provider-prices; its X figures are never stored.
SHEETS = {"gpu-facts": "gpu:", "provider-prices": "prices:", "article": "", "benchmarks": "bench:", "specs": "spec:",
          "feeds": "feed:", "nodes": "nodes:", "china-prices": "cn:"}
EXPORT_STATUS = {"unrestricted", "licence_required", "banned", "china_only_variant", "domestic", "unknown"}
PROVIDER_KINDS = {"hyperscaler", "gpu_cloud", "china_cloud", "server_vendor", "reseller", "marketplace", "market_report",
                  "dealer"}
BILLING_MODES = {"on_demand", "reserved_1y", "reserved_3y", "spot", "monthly", "purchase", "savings_plan"}
PRICE_UNITS = {"instance_hour", "accelerator_hour", "instance_month", "server"}
CURRENCIES = {"USD", "CNY", "EUR"}
UPFRONT = {"none", "partial", "all", ""}
BOOLS = {"true", "false"}
WORKLOAD_CLASSES = {
    "llm_pretraining", "llm_finetuning", "llm_inference", "vision_training", "vision_inference",
    "nlp_training", "nlp_inference", "recommendation_training", "recommendation_inference",
    "gemm_bf16", "gemm_fp16", "gemm_fp8", "memory_bandwidth", "interconnect", "mixed_unspecified",
}
SUITES = {"flagperf", "mlperf_training", "mlperf_inference", "vendor", "paper", "community"}
SCALE_UP = {"nvswitch", "nvlink", "hccs", "infinity_fabric", "pcie", "not_stated"}
SCALE_OUT = {"infiniband", "roce", "efa", "gpudirect_tcpx", "ethernet", "not_stated"}
MULTI_NODE = {"sold", "not_sold", "not_stated"}
CURRENCY_CODE = re.compile(r"^[A-Z]{3}$")
KEPT_OUT = {"reference_only", "model_changed"}
METRICS = {"tokens_per_accel_second", "tokens_per_second", "samples_per_second", "samples_per_accel_second",
           "mfu", "tflops", "gbps", "minutes_to_train"}
SPEC_FIELDS = {"memory_gb", "memory_type", "interconnect", "memory_bandwidth_gbps", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp32_tflops",
               "int8_tops", "tdp_w", "interconnect_gbps"}
# gpu-facts tags: V M P C D U, optionally qualified as the sheet does ("P-low", "M-context").
GPU_TAG = re.compile(r"^[VMPCDU](-[a-z]+)?$")
PRICE_TAGS = {"A", "B", "C", "X"}

KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SOURCE_ID = re.compile(r"^(article|gpu:S[0-9]+|prices:S[0-9]+|nodes:N[0-9]+|cn:[A-Z]{2}|(bench|spec|feed):[a-z0-9]+([.-][a-z0-9]+)*)$")
DATE = re.compile(r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$")
COUNTRY = re.compile(r"^[A-Z]{2}$")

MIN_COUNTS = {"accelerators.csv": 25, "providers.csv": 15, "offers.csv": 80}
# Issue 34: the Chinese market priced.
MIN_DOMESTIC_OFFERS = 25
REQUIRED_ACCELERATORS = [
    "nvidia-a100-sxm-80gb", "article-domestic-card", "huawei-ascend-910", "huawei-ascend-910b",
    "huawei-ascend-910b1", "huawei-ascend-910b2", "huawei-ascend-910b3", "huawei-ascend-910b4",
    "huawei-ascend-910c", "cambricon-mlu370-x8", "cambricon-mlu590", "hygon-dcu-z100", "hygon-dcu-k100",
    "kunlunxin-r200", "kunlunxin-p800", "moorethreads-mtt-s4000", "biren-br100", "biren-br104",
    "iluvatar-bi-v100", "iluvatar-bi-v150", "metax-c500-pcie",
]

errors: list[str] = []
warnings: list[str] = []


def err(where: str, msg: str) -> None:
    errors.append(f"{where}: {msg}")


def warn(where: str, msg: str) -> None:
    warnings.append(f"{where}: {msg}")


def canonical(fields: list[str]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_MINIMAL).writerow(fields)
    return buf.getvalue().rstrip("\n")


def load(name: str) -> list[dict[str, str]]:
    path = HERE / name
    if not path.exists():
        err(name, "file missing")
        return []
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        err(name, "has a UTF-8 BOM")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        err(name, f"not UTF-8: {e}")
        return []
    if "\r" in text:
        err(name, "contains CR characters (use LF line ends)")
    if not text.endswith("\n"):
        err(name, "does not end with a newline")
    lines = text.split("\n")[:-1]
    records = list(csv.reader(io.StringIO(text, newline="")))
    if len(records) != len(lines):
        err(name, f"{len(lines)} lines but {len(records)} CSV records: a field contains a newline")
        return []
    header = HEADERS[name]
    if not records or records[0] != header:
        err(name, f"header is {records[0] if records else None}, expected {header}")
        return []
    rows = []
    for n, (line, rec) in enumerate(zip(lines, records), start=1):
        where = f"{name}:{n}"
        if line != line.rstrip(" \t"):
            err(where, "trailing whitespace")
        if len(rec) != len(header):
            err(where, f"{len(rec)} fields, expected {len(header)}")
            continue
        if canonical(rec) != line:
            err(where, "not in canonical RFC 4180 minimal quoting")
        if n > 1:
            rows.append(dict(zip(header, rec)) | {"__line__": str(n)})
    return rows


def at(name: str, row: dict[str, str]) -> str:
    return f"{name}:{row['__line__']} ({row.get('id', '')})"


def check_ids(name: str, rows: list[dict[str, str]], pattern: re.Pattern[str]) -> set[str]:
    seen: set[str] = set()
    for row in rows:
        i = row["id"]
        if not pattern.match(i):
            err(at(name, row), f"id {i!r} is not valid")
        if i in seen:
            err(at(name, row), f"duplicate id {i!r}")
        seen.add(i)
    return seen


def number(name: str, row: dict[str, str], col: str, *, required: bool = False, integer: bool = False,
           positive: bool = False, maximum: float | None = None) -> float | None:
    v = row[col]
    if v == "":
        if required:
            err(at(name, row), f"{col} is empty")
        return None
    try:
        x = float(v)
    except ValueError:
        err(at(name, row), f"{col}={v!r} is not a number")
        return None
    if not math.isfinite(x) or x < 0:
        err(at(name, row), f"{col}={v!r} must be finite and non-negative")
    if positive and x <= 0:
        err(at(name, row), f"{col}={v!r} must be > 0")
    if integer and x != int(x):
        err(at(name, row), f"{col}={v!r} must be an integer")
    if maximum is not None and x > maximum:
        err(at(name, row), f"{col}={v!r} exceeds {maximum}")
    return x


def valid_date(v: str) -> bool:
    if not DATE.match(v):
        return False
    parts = [int(p) for p in v.split("-")]
    try:
        dt.date(parts[0], parts[1] if len(parts) > 1 else 1, parts[2] if len(parts) > 2 else 1)
    except ValueError:
        return False
    return True


def check_date(name: str, row: dict[str, str], col: str, *, may_be_empty_with: str | None = None) -> None:
    v = row[col]
    if v == "":
        if may_be_empty_with is None:
            err(at(name, row), f"{col} is empty")
        elif may_be_empty_with not in row.get("notes", ""):
            err(at(name, row), f"{col} is empty and notes do not say why (expected '{may_be_empty_with}')")
        return
    if not valid_date(v):
        err(at(name, row), f"{col}={v!r} is not YYYY, YYYY-MM or YYYY-MM-DD")


def check_provenance(name: str, row: dict[str, str], sources: dict[str, str]) -> None:
    src = row["source"]
    if not src:
        err(at(name, row), "source is empty")
        return
    sheets = set()
    for s in src.split(";"):
        if s not in sources:
            err(at(name, row), f"source {s!r} not in sources.csv")
        else:
            sheets.add(sources[s])
    conf = row["confidence"]
    if not conf:
        err(at(name, row), "confidence is empty")
        return
    ok_gpu = bool(GPU_TAG.match(conf)) and sheets & {"gpu-facts", "article", "benchmarks", "specs"}
    # A feed file (SkyPilot's catalogue) is provider data: the provider-prices vocabulary.
    ok_prices = conf in PRICE_TAGS and bool(sheets & {"provider-prices", "feeds", "nodes", "china-prices"})
    if name == "offers.csv" and sheets == {"china-prices"} and conf == "X":
        err(at(name, row), "a figure china-prices.md tags X is not stored (re-read its primary page first)")
    if not (ok_gpu or ok_prices):
        err(at(name, row), f"confidence {conf!r} does not fit the tag vocabulary of the cited sheet(s) {sorted(sheets)}")


def enum(name: str, row: dict[str, str], col: str, allowed: set[str], *, empty_ok: bool = False) -> None:
    v = row[col]
    if v == "" and empty_ok:
        return
    if v not in allowed:
        err(at(name, row), f"{col}={v!r} not in {sorted(allowed)}")


def main() -> int:
    data = {name: load(name) for name in HEADERS}

    # sources
    # The feed files the importers read are sources too (feeds/sources.csv).
    src_rows = data["sources.csv"] + data["feeds/sources.csv"]
    check_ids("sources.csv", src_rows, SOURCE_ID)
    sources: dict[str, str] = {}
    for row in src_rows:
        enum("sources.csv", row, "sheet", set(SHEETS))
        prefix = SHEETS.get(row["sheet"])
        if prefix is not None and prefix and not row["id"].startswith(prefix):
            err(at("sources.csv", row), f"id prefix does not match sheet {row['sheet']!r}")
        if row["sheet"] == "article" and row["id"] != "article":
            err(at("sources.csv", row), "the only article source id is 'article'")
        if not row["title"]:
            err(at("sources.csv", row), "title is empty")
        if row["url"] and not re.match(r"^https?://\S+$", row["url"]):
            err(at("sources.csv", row), f"url {row['url']!r} is not an http(s) URL")
        sources[row["id"]] = row["sheet"]
    used_sources: set[str] = set()

    def note_sources(row: dict[str, str]) -> None:
        used_sources.update(s for s in row["source"].split(";") if s)

    # accelerators
    name = "accelerators.csv"
    acc = data[name]
    acc_ids = check_ids(name, acc, KEBAB)
    for row in acc:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        for col in ["vendor", "name"]:
            if not row[col]:
                err(at(name, row), f"{col} is empty")
        enum(name, row, "domestic", BOOLS)
        enum(name, row, "export_status_cn", EXPORT_STATUS)
        if row["domestic"] == "true" and row["export_status_cn"] != "domestic":
            err(at(name, row), "domestic accelerator must have export_status_cn=domestic")
        if row["domestic"] == "false" and row["export_status_cn"] == "domestic":
            err(at(name, row), "export_status_cn=domestic on a non-domestic accelerator")
        for col in ["memory_gb", "memory_bandwidth_gbps", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp32_tflops",
                    "int8_tops", "tdp_w", "interconnect_gbps", "list_price"]:
            number(name, row, col, positive=True)
        for v in [v for v in row["variants"].split(";") if v]:
            if v not in {r["id"] for r in acc} or v == row["id"]:
                err(at(name, row), f"variant {v!r} is not another accelerator of accelerators.csv")
        for field in [f for f in row["unpublished"].split(";") if f]:
            if field not in SPEC_FIELDS:
                err(at(name, row), f"unpublished names {field!r}, not a spec column")
            elif row[field]:
                err(at(name, row), f"{field} has a value and is listed as unpublished")
        for col in ["release", "export_status_since", "list_price_as_of"]:
            if row[col] and not valid_date(row[col]):
                err(at(name, row), f"{col}={row[col]!r} is not YYYY, YYYY-MM or YYYY-MM-DD")
        if row["list_price"]:
            enum(name, row, "list_price_currency", CURRENCIES)
            if not row["list_price_as_of"] and "list_price_as_of is empty" not in row["notes"]:
                err(at(name, row), "list_price without list_price_as_of and no note saying why")
        elif row["list_price_currency"] or row["list_price_as_of"]:
            err(at(name, row), "list_price_currency/list_price_as_of set without list_price")
    for required in REQUIRED_ACCELERATORS:
        if required not in acc_ids:
            err(name, f"required accelerator {required!r} missing")

    # providers
    name = "providers.csv"
    prov = data[name]
    prov_ids = check_ids(name, prov, KEBAB)
    prov_modes: dict[str, set[str]] = {}
    for row in prov:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        if not row["name"]:
            err(at(name, row), "name is empty")
        if row["country"] and not COUNTRY.match(row["country"]):
            err(at(name, row), f"country {row['country']!r} is not ISO 3166 alpha-2")
        enum(name, row, "kind", PROVIDER_KINDS)
        modes = {m for m in row["billing_modes"].split(";") if m}
        for m in modes:
            if m not in BILLING_MODES:
                err(at(name, row), f"billing mode {m!r} not in {sorted(BILLING_MODES)}")
        prov_modes[row["id"]] = modes
        for col in ["bare_metal", "dedicated_gpu", "encryption_in_transit"]:
            enum(name, row, col, BOOLS, empty_ok=True)
        if ";;" in row["certifications"] or row["certifications"].startswith(";") or row["certifications"].endswith(";"):
            err(at(name, row), "certifications has an empty list item")

    # offers
    name = "offers.csv"
    off = data[name]
    check_ids(name, off, KEBAB)
    for row in off:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        if row["provider_id"] not in prov_ids:
            err(at(name, row), f"provider_id {row['provider_id']!r} not in providers.csv")
        if row["accelerator_id"] not in acc_ids:
            err(at(name, row), f"accelerator_id {row['accelerator_id']!r} not in accelerators.csv")
        if not row["instance"]:
            err(at(name, row), "instance is empty")
        enum(name, row, "billing_mode", BILLING_MODES)
        enum(name, row, "price_unit", PRICE_UNITS)
        enum(name, row, "currency", CURRENCIES)
        enum(name, row, "upfront", UPFRONT)
        low = number(name, row, "price", required=True, positive=True)
        high = number(name, row, "price_high", positive=True)
        if low is not None and high is not None and high <= low:
            err(at(name, row), "price_high must be above price (a range keeps its low end in price)")
        per_accel = row["price_unit"] == "accelerator_hour"
        number(name, row, "accelerators_per_instance", required=not per_accel, integer=True, positive=True)
        if (row["billing_mode"] == "purchase") != (row["price_unit"] == "server"):
            err(at(name, row), "billing_mode purchase goes with price_unit server, and only with it")
        if row["price_unit"] == "instance_month" and row["billing_mode"] != "monthly":
            err(at(name, row), "price_unit instance_month needs billing_mode monthly")
        if row["billing_mode"] in ("on_demand", "spot") and row["upfront"] not in ("none", "all"):
            err(at(name, row), "on_demand/spot rows must say upfront none (or all for prepaid capacity blocks)")
        modes = prov_modes.get(row["provider_id"], set())
        if modes and row["billing_mode"] not in modes:
            err(at(name, row), f"billing_mode {row['billing_mode']!r} not in provider's billing_modes {sorted(modes)}")

    domestic_ids = {r["id"] for r in acc if r["domestic"] == "true"}
    domestic_offers = [r for r in off if r["accelerator_id"] in domestic_ids]
    if len(domestic_offers) < MIN_DOMESTIC_OFFERS:
        err(name, f"{len(domestic_offers)} offers for domestic accelerators, need at least {MIN_DOMESTIC_OFFERS}")

    # efficiency
    name = "efficiency.csv"
    eff = data[name]
    check_ids(name, eff, KEBAB)
    classes: set[str] = set()
    for row in eff:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        for col in ["accelerator_id", "reference_accelerator_id"]:
            if row[col] not in acc_ids:
                err(at(name, row), f"{col} {row[col]!r} not in accelerators.csv")
        enum(name, row, "workload_class", WORKLOAD_CLASSES)
        classes.add(row["workload_class"])
        number(name, row, "ratio", required=True, positive=True)
        if not row["method"]:
            err(at(name, row), "method is empty")
        if row["confidence"] == "D" and not re.search(r"[0-9].*/.*[0-9].*=\s*[0-9]", row["method"]):
            err(at(name, row), "confidence D needs the arithmetic (a / b) in method")
    if len(classes) < 4:
        err(name, f"only {len(classes)} workload classes, need at least 4")
    for need in [{"llm_pretraining"}, {"llm_inference", "llm_finetuning"}, {"vision_training"}]:
        if not classes & need:
            err(name, f"no row for workload class {' or '.join(sorted(need))}")

    # scaling
    name = "scaling.csv"
    sca = data[name]
    check_ids(name, sca, KEBAB)
    for row in sca:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        if row["accelerator_id"] and row["accelerator_id"] not in acc_ids:
            err(at(name, row), f"accelerator_id {row['accelerator_id']!r} not in accelerators.csv")
        number(name, row, "accelerators", integer=True, positive=True)
        number(name, row, "efficiency", required=True, positive=True, maximum=1.0)
        if not row["setup"]:
            err(at(name, row), "setup is empty")

    # export controls
    name = "export_controls.csv"
    exc = data[name]
    check_ids(name, exc, KEBAB)
    for row in exc:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "date", may_be_empty_with="date empty")
        if not COUNTRY.match(row["jurisdiction"]):
            err(at(name, row), f"jurisdiction {row['jurisdiction']!r} is not ISO 3166 alpha-2")
        items = [a for a in row["affected"].split(";") if a]
        if not items:
            err(at(name, row), "affected is empty")
        elif all(KEBAB.match(a) for a in items):
            for a in items:
                if a not in acc_ids:
                    err(at(name, row), f"affected id {a!r} not in accelerators.csv")
        for col in ["rule", "effect"]:
            if not row[col]:
                err(at(name, row), f"{col} is empty")

    # measurements: what a public suite published, never filled in
    name = "measurements.csv"
    mea = data[name]
    check_ids(name, mea, KEBAB)
    for row in mea:
        note_sources(row)
        check_provenance(name, row, sources)
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        enum(name, row, "suite", SUITES)
        enum(name, row, "workload_class", WORKLOAD_CLASSES)
        enum(name, row, "metric", METRICS)
        enum(name, row, "kept_out", KEPT_OUT, empty_ok=True)
        if row["accelerator_id"] not in acc_ids:
            err(at(name, row), f"accelerator_id {row['accelerator_id']!r} not in accelerators.csv")
        for col in ["case", "location"]:
            if not row[col]:
                err(at(name, row), f"{col} is empty")
        number(name, row, "accelerators", required=True, integer=True, positive=True)
        number(name, row, "nodes", integer=True, positive=True)
        number(name, row, "sequence_length", integer=True, positive=True)
        value = number(name, row, "value", positive=True)
        derived = row["confidence"] == "D" and row["published_as"].startswith("derived")
        if value is not None and not (re.search(r"[0-9]", row["published_as"]) or derived):
            err(at(name, row), f"value {row['value']!r} but the source published {row['published_as']!r}: never fill a gap")
        if row["metric"] == "mfu" and value is not None and value > 1:
            err(at(name, row), "mfu is a fraction (39.3 % is 0.393)")
        peak = number(name, row, "mfu_peak_tflops", positive=True)
        if (peak is None) != (not row["mfu_peak_location"]) or (peak is not None and row["metric"] != "mfu"):
            err(at(name, row), "mfu_peak_tflops and mfu_peak_location go together, on an mfu row only")

    # nodes: how an instance's accelerators are connected and whether it is sold in clusters.
    # Tags are always the provider-prices vocabulary (A/B/C/X), whatever sheet the sources come from.
    name = "nodes.csv"
    nod = data[name]
    check_ids(name, nod, KEBAB)
    offer_pairs = {(r["provider_id"], r["instance"]): r["accelerator_id"] for r in off}
    seen_pairs: set[tuple[str, str]] = set()
    for row in nod:
        note_sources(row)
        if not row["source"]:
            err(at(name, row), "source is empty")
        for s in [s for s in row["source"].split(";")]:
            if s not in sources:
                err(at(name, row), f"source {s!r} not in sources.csv")
        if row["confidence"] not in PRICE_TAGS:
            err(at(name, row), f"confidence {row['confidence']!r} not in {sorted(PRICE_TAGS)}")
        check_date(name, row, "as_of", may_be_empty_with="as_of empty")
        if row["provider_id"] not in prov_ids:
            err(at(name, row), f"provider_id {row['provider_id']!r} not in providers.csv")
        if row["accelerator_id"] not in acc_ids:
            err(at(name, row), f"accelerator_id {row['accelerator_id']!r} not in accelerators.csv")
        pair = (row["provider_id"], row["instance"])
        if pair not in offer_pairs:
            err(at(name, row), f"(provider_id, instance) {pair!r} is not in offers.csv")
        elif offer_pairs[pair] != row["accelerator_id"]:
            err(at(name, row), f"accelerator_id differs from offers.csv ({offer_pairs[pair]!r})")
        if pair in seen_pairs:
            err(at(name, row), f"(provider_id, instance) {pair!r} listed twice")
        seen_pairs.add(pair)
        number(name, row, "accelerators_per_node", integer=True, positive=True)
        number(name, row, "max_cluster_accelerators", integer=True, positive=True)
        number(name, row, "scale_up_gbps", positive=True)
        number(name, row, "scale_out_gbps", positive=True)
        enum(name, row, "scale_up", SCALE_UP)
        enum(name, row, "scale_out", SCALE_OUT)
        enum(name, row, "multi_node", MULTI_NODE)
        enum(name, row, "gpudirect_rdma", BOOLS, empty_ok=True)
        if row["scale_up"] == "not_stated" and row["scale_up_gbps"]:
            err(at(name, row), "scale_up_gbps given but scale_up is not_stated")
        if row["scale_out"] == "not_stated" and row["scale_out_gbps"]:
            err(at(name, row), "scale_out_gbps given but scale_out is not_stated")
        if row["scale_out"] in ("ethernet", "gpudirect_tcpx") and row["gpudirect_rdma"] == "true":
            err(at(name, row), f"gpudirect_rdma true on a {row['scale_out']} network (no RDMA)")
        if not row["notes"]:
            err(at(name, row), "notes are empty (say what the source states and what it does not)")

    # fx: reference exchange rates, CNY per unit of each other offer currency
    name = "fx.csv"
    fx = data[name]
    fx_currencies: set[str] = set()
    for row in fx:
        where = f"{name}:{row['__line__']} ({row['currency']})"
        if not CURRENCY_CODE.match(row["currency"]) or row["currency"] == "CNY":
            err(where, f"currency {row['currency']!r} must be an ISO 4217 code other than CNY")
        if row["currency"] in fx_currencies:
            err(where, "duplicate currency")
        fx_currencies.add(row["currency"])
        note_sources(row)
        check_provenance(name, row | {"id": row["currency"]}, sources)
        check_date(name, row | {"id": row["currency"]}, "as_of")
        number(name, row | {"id": row["currency"]}, "cny_per_unit", required=True, positive=True)
    for cur in sorted({r["currency"] for r in off} - {"CNY"} - fx_currencies):
        err(name, f"offers are priced in {cur} but fx.csv has no rate for it")

    for row in data["sources.csv"]:  # feed sources are cited by the alias table as well
        if row["id"] not in used_sources:
            warn("sources.csv", f"{row['id']} is not cited by any row")

    for name, minimum in MIN_COUNTS.items():
        if len(data[name]) < minimum:
            err(name, f"{len(data[name])} rows, need at least {minimum}")

    print("rows:")
    for name in HEADERS:
        print(f"  {name:20s} {len(data[name]):4d}")
    print(f"  domestic offers:  {len(domestic_offers)} ({len({r['accelerator_id'] for r in domestic_offers})} accelerators)")
    print(f"  workload classes: {len(classes)} ({', '.join(sorted(classes))})")
    print(f"  sources cited: {len(used_sources)} of {len(src_rows)}")
    if warnings:
        print(f"{len(warnings)} warning(s):")
        for w in warnings:
            print("  warning:", w)
    if errors:
        print(f"{len(errors)} error(s):")
        for e in errors:
            print("  error:", e)
        return 1
    print("OK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
