//! Rules every catalogue row meets, wherever it comes from (bundled data,
//! an import, a pack): provenance present, numbers finite and not
//! negative, enumerations known, references resolving, ids unique.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use suanli_model::{Currency, Lang};

use crate::rows::*;

/// One rejected row: where, which field, what value, why.
#[derive(Debug, Clone, PartialEq)]
pub struct RowError {
    /// The table or input it came from (`offers`, `import`, `pricebook offers`).
    pub table: &'static str,
    /// Where the row came from, when known: its line in a CSV (header = line 1),
    /// its item number in an Azure page, its entry number in a price book.
    pub line: Option<usize>,
    /// The row's id; empty when it has none.
    pub id: String,
    /// The field at fault.
    pub field: String,
    /// The value as given.
    pub value: String,
    /// What is wrong with it.
    pub problem: Problem,
}

impl RowError {
    /// `offers line 5 (q4): price = "-3": must not be negative`
    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let mut out = match (self.line, zh) {
            (Some(line), false) => format!("{} line {line}", self.table),
            (Some(line), true) => format!("{} 第 {line} 行", self.table),
            (None, _) => self.table.to_owned(),
        };
        if !self.id.is_empty() {
            out.push_str(&format!(" ({})", self.id));
        }
        out.push_str(&format!(": {} = {:?}: {}", self.field, self.value, self.problem.describe(lang)));
        out
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

/// Why a row was refused: a closed set, said in English or Chinese.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Empty, but required.
    Required,
    /// Not a finite number.
    NotFinite,
    /// Below zero.
    Negative,
    /// Larger than any real figure.
    TooLarge,
    /// Not a number.
    NotANumber,
    /// Not one of the allowed values (listed).
    OneOf(Vec<&'static str>),
    /// A currency code that is not one of the known currencies.
    UnknownCurrency,
    /// An id used twice.
    Duplicate {
        /// Line of the first use, when known.
        first_line: Option<usize>,
    },
    /// A reference to a row that does not exist (`table`: what was looked in).
    NoSuchRow {
        /// The table looked in.
        table: &'static str,
    },
    /// A discount's provider or offer that the catalogue does not hold.
    NoDiscountTarget {
        /// The table looked in.
        table: &'static str,
    },
    /// Zero where only a figure above 0 makes sense (a price the user types in).
    NotPositive,
    /// A price per instance without an accelerator count above 0.
    CountForInstancePrice,
    /// The high end of a quoted range below its low end (`price`).
    RangeHighBelowLow,
    /// Not a finite number above 0.
    PositiveRatio,
    /// A scaling efficiency outside (0, 1].
    ScalingShare,
    /// A discount share outside [0, 1).
    DiscountShare,
    /// A discount that names both or neither of an offer and a provider.
    DiscountTarget,
    /// Not what was expected; the text says what was.
    Expected(&'static str),
    /// A value where the source published none ("/", "--", blank).
    FilledGap,
    /// A share of a part's own peak (MFU): above 0, at most 1.
    Fraction,
    /// A peak for MFU on a row that is not an MFU row, or a peak without
    /// where it is recorded (or a location without a peak).
    MfuPeak,
    /// A parser's own message (CSV, JSON), kept as it said it.
    Parser(String),
    /// A field longer than an importer accepts.
    TooLong {
        /// The limit, bytes.
        limit: usize,
    },
}

impl Problem {
    /// The problem in words, in English or Chinese.
    pub fn describe(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Problem::Required => lang.pick("is required", "为必填项").to_owned(),
            Problem::NotFinite => lang.pick("must be a finite number", "必须是有限数值").to_owned(),
            Problem::Negative => lang.pick("must not be negative", "不能为负数").to_owned(),
            Problem::NotPositive => lang.pick("must be greater than 0", "必须大于 0").to_owned(),
            Problem::TooLarge => {
                let max = suanli_model::validate::MAX_QUANTITY;
                if zh {
                    format!("数值过大（不能超过 {max:e}）")
                } else {
                    format!("is beyond any real figure (at most {max:e})")
                }
            }
            Problem::NotANumber => lang.pick("must be a number", "必须是数字").to_owned(),
            Problem::OneOf(allowed) => {
                if zh {
                    format!("必须是以下之一：{}", allowed.join(", "))
                } else {
                    format!("must be one of {}", allowed.join(", "))
                }
            }
            Problem::UnknownCurrency => {
                let known: Vec<&str> = Currency::ALL.iter().map(|c| c.code()).collect();
                if zh {
                    format!("不是已知货币（{}）", known.join(", "))
                } else {
                    format!("is not a known currency ({})", known.join(", "))
                }
            }
            Problem::Duplicate { first_line } => match (first_line, zh) {
                (Some(l), false) => format!("is a duplicate (first at line {l})"),
                (Some(l), true) => format!("重复（首次出现在第 {l} 行）"),
                (None, false) => "is a duplicate".to_owned(),
                (None, true) => "重复".to_owned(),
            },
            Problem::NoSuchRow { table } => {
                if zh {
                    format!("在 {table} 中找不到")
                } else {
                    format!("names no row of {table}")
                }
            }
            Problem::NoDiscountTarget { table } => {
                if zh {
                    format!(
                        "在 {table} 中找不到，折扣将永远不会生效；如果它是给之后才导入的供应商或报价，请加 --for-later"
                    )
                } else {
                    format!(
                        "names no row of {table}, so the discount would never apply; if it is for a provider or offer you will import later, say so with --for-later"
                    )
                }
            }
            Problem::CountForInstancePrice => {
                lang.pick("is required (> 0) for a price per instance", "按实例计价时必须填写（大于 0）").to_owned()
            }
            Problem::RangeHighBelowLow => lang
                .pick(
                    "is below price: a range keeps its low end in price and its high end here",
                    "低于 price：区间的下限填在 price，上限填在此处",
                )
                .to_owned(),
            Problem::PositiveRatio => {
                lang.pick("must be a finite number above 0", "必须是大于 0 的有限数值").to_owned()
            }
            Problem::ScalingShare => lang.pick("must be above 0 and at most 1", "必须大于 0 且不超过 1").to_owned(),
            Problem::DiscountShare => lang.pick("must be at least 0 and below 1", "必须不小于 0 且小于 1").to_owned(),
            Problem::DiscountTarget => lang
                .pick("set exactly one of offer_id and provider_id", "offer_id 与 provider_id 必须且只能填写一个")
                .to_owned(),
            Problem::FilledGap => lang
                .pick(
                    "has a value, but the source published none there: a gap is never filled",
                    "来源在此处未公布数值，不能填入数字",
                )
                .to_owned(),
            Problem::Fraction => lang.pick("must be above 0 and at most 1", "必须大于 0 且不超过 1").to_owned(),
            Problem::MfuPeak => lang
                .pick(
                    "belongs only on an MFU row, as a peak above 0 together with where the suite records it (mfu_peak_tflops and mfu_peak_location)",
                    "仅用于 MFU 行：须同时给出大于 0 的峰值及其在测试套件中的记录位置（mfu_peak_tflops 与 mfu_peak_location）",
                )
                .to_owned(),
            Problem::Expected(what) => {
                if zh {
                    format!("应为 {what}")
                } else {
                    format!("expected {what}")
                }
            }
            Problem::TooLong { limit } => {
                if zh {
                    format!("超过字段长度上限（{limit} 字节）")
                } else {
                    format!("is longer than a field may be ({limit} bytes)")
                }
            }
            Problem::Parser(message) => {
                if zh {
                    format!("无法解析：{message}")
                } else {
                    message.clone()
                }
            }
        }
    }
}

pub(crate) struct Checker {
    pub errors: Vec<RowError>,
    table: &'static str,
    line: Option<usize>,
    id: String,
}

impl Checker {
    pub fn new() -> Self {
        Checker { errors: Vec::new(), table: "", line: None, id: String::new() }
    }

    pub fn at(&mut self, table: &'static str, line: Option<usize>, id: &str) {
        self.table = table;
        self.line = line;
        self.id.clear();
        self.id.push_str(id);
    }

    pub fn fail(&mut self, field: &str, value: impl fmt::Display, problem: Problem) {
        self.errors.push(RowError {
            table: self.table,
            line: self.line,
            id: self.id.clone(),
            field: field.to_owned(),
            value: value.to_string(),
            problem,
        });
    }

    pub fn required(&mut self, field: &str, value: &str) {
        if value.trim().is_empty() {
            self.fail(field, value, Problem::Required);
        }
    }

    pub fn amount(&mut self, field: &str, value: Option<f64>) {
        if let Some(x) = value {
            if !x.is_finite() {
                self.fail(field, x, Problem::NotFinite);
            } else if x < 0.0 {
                self.fail(field, x, Problem::Negative);
            } else if x > suanli_model::validate::MAX_QUANTITY {
                self.fail(field, x, Problem::TooLarge);
            }
        }
    }

    pub fn id<'a, S: std::hash::BuildHasher>(&mut self, seen: &mut HashMap<&'a str, Option<usize>, S>, id: &'a str) {
        self.required("id", id);
        if let Some(first_line) = seen.insert(id, self.line) {
            self.fail("id", id, Problem::Duplicate { first_line });
        }
    }

    /// Checks an offer on its own (not its references).
    pub fn offer(&mut self, o: &Offer) {
        self.required("provider_id", &o.provider_id);
        self.amount("price", Some(o.price));
        self.amount("price_high", o.price_high);
        if let Some(high) = o.price_high
            && high < o.price
        {
            self.fail("price_high", high, Problem::RangeHighBelowLow);
        }
        self.amount("accelerators_per_instance", o.accelerators_per_instance);
        if o.price_unit.per_instance() && o.accelerators_per_instance.is_none_or(|n| n <= 0.0) {
            self.fail(
                "accelerators_per_instance",
                o.accelerators_per_instance.map_or(String::new(), |n| n.to_string()),
                Problem::CountForInstancePrice,
            );
        }
        self.provenance(&o.source);
    }

    /// Checks a measurement on its own: its configuration is stated, its
    /// value is a real figure, and no gap in the source was filled.
    pub fn measurement(&mut self, m: &Measurement) {
        self.required("case", &m.case);
        self.required("location", &m.location);
        if !(m.accelerators.is_finite() && m.accelerators >= 1.0 && m.accelerators.fract() == 0.0) {
            self.fail("accelerators", m.accelerators, Problem::Expected("a whole number of accelerators, at least 1"));
        }
        if let Some(v) = m.value {
            if !(v.is_finite() && v > 0.0) {
                self.fail("value", v, Problem::PositiveRatio);
            } else if m.metric == Metric::Mfu && v > 1.0 {
                self.fail("value", v, Problem::Fraction);
            }
            let published = m.published_as.as_deref().unwrap_or("");
            let derived = m.confidence == Confidence::D && published.starts_with("derived");
            if !(published.chars().any(|c| c.is_ascii_digit()) || derived) {
                self.fail("value", v, Problem::FilledGap);
            }
        }
        match (m.mfu_peak_tflops, m.mfu_peak_location.as_deref().filter(|l| !l.trim().is_empty())) {
            (None, None) => {}
            (Some(p), Some(_)) if m.metric == Metric::Mfu && p.is_finite() && p > 0.0 => {}
            (Some(p), _) => self.fail("mfu_peak_tflops", p, Problem::MfuPeak),
            (None, Some(l)) => self.fail("mfu_peak_location", l, Problem::MfuPeak),
        }
        self.provenance(&m.source);
    }

    /// Every text field of `row` within [`FIELD_MAX_BYTES`]: the limit the
    /// importers hold a feed's fields to, for every row wherever it comes from.
    pub fn lengths<T: serde::Serialize>(&mut self, row: &T) {
        let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(row) else { return };
        for (field, value) in &fields {
            if let Some(text) = value.as_str().filter(|t| t.len() > FIELD_MAX_BYTES) {
                self.fail(field, too_long(text), Problem::TooLong { limit: FIELD_MAX_BYTES });
            }
        }
    }

    pub fn provenance(&mut self, source: &str) {
        self.required("source", source);
    }
}

/// A field longer than this is refused, wherever the row comes from (a
/// real feed's longest, `GpuInfo`, is a few hundred bytes; the bundled
/// catalogue's longest, a note, under a thousand).
pub const FIELD_MAX_BYTES: usize = 1024;

/// An over-long value as an error shows it: its start and its length.
pub(crate) fn too_long(value: &str) -> String {
    let preview: String = value.chars().take(40).collect();
    format!("{preview}… ({} bytes)", value.len())
}

/// Every row's text fields within [`FIELD_MAX_BYTES`].
fn check_lengths(c: &mut Checker, t: &Tables) {
    fn rows<T: serde::Serialize>(c: &mut Checker, table: &'static str, rows: &[T], id: fn(&T) -> &str) {
        for (i, r) in rows.iter().enumerate() {
            c.at(table, Some(i + 2), id(r));
            c.lengths(r);
        }
    }
    rows(c, "sources", &t.sources, |r| &r.id);
    rows(c, "accelerators", &t.accelerators, |r| &r.id);
    rows(c, "providers", &t.providers, |r| &r.id);
    rows(c, "offers", &t.offers, |r| &r.id);
    rows(c, "efficiency", &t.efficiency, |r| &r.id);
    rows(c, "measurements", &t.measurements, |r| &r.id);
    rows(c, "scaling", &t.scaling, |r| &r.id);
    rows(c, "export_controls", &t.export_controls, |r| &r.id);
}

/// Checks whole tables: each row, unique ids and every reference.
pub fn check_tables(t: &Tables) -> Vec<RowError> {
    let mut c = Checker::new();
    let line = |i: usize| Some(i + 2);
    check_lengths(&mut c, t);

    let mut ids = HashMap::new();
    for (i, s) in t.sources.iter().enumerate() {
        c.at("sources", line(i), &s.id);
        c.id(&mut ids, &s.id);
        c.required("title", &s.title);
    }
    let source_ids: BTreeSet<&str> = t.sources.iter().map(|s| s.id.as_str()).collect();
    let sources_known = |c: &mut Checker, field: &str, value: &str| {
        for id in value.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            if !source_ids.contains(id) {
                c.fail(field, id, Problem::NoSuchRow { table: "sources" });
            }
        }
    };

    let mut ids = HashMap::new();
    for (i, a) in t.accelerators.iter().enumerate() {
        c.at("accelerators", line(i), &a.id);
        c.id(&mut ids, &a.id);
        c.required("name", &a.name);
        c.required("vendor", &a.vendor);
        for (field, value) in [
            ("memory_gb", a.memory_gb),
            ("memory_bandwidth_gbps", a.memory_bandwidth_gbps),
            ("fp8_tflops", a.fp8_tflops),
            ("bf16_tflops", a.bf16_tflops),
            ("fp16_tflops", a.fp16_tflops),
            ("fp32_tflops", a.fp32_tflops),
            ("int8_tops", a.int8_tops),
            ("tdp_w", a.tdp_w),
            ("interconnect_gbps", a.interconnect_gbps),
            ("list_price", a.list_price),
        ] {
            c.amount(field, value);
        }
        c.provenance(&a.source);
        sources_known(&mut c, "source", &a.source);
    }
    let accelerators: BTreeSet<&str> = t.accelerators.iter().map(|a| a.id.as_str()).collect();

    let mut ids = HashMap::new();
    for (i, p) in t.providers.iter().enumerate() {
        c.at("providers", line(i), &p.id);
        c.id(&mut ids, &p.id);
        c.required("name", &p.name);
        c.provenance(&p.source);
        sources_known(&mut c, "source", &p.source);
    }
    let providers: BTreeSet<&str> = t.providers.iter().map(|p| p.id.as_str()).collect();

    let mut ids = HashMap::new();
    for (i, o) in t.offers.iter().enumerate() {
        c.at("offers", line(i), &o.id);
        c.id(&mut ids, &o.id);
        c.offer(o);
        if !providers.contains(o.provider_id.as_str()) {
            c.fail("provider_id", &o.provider_id, Problem::NoSuchRow { table: "providers" });
        }
        if let Some(a) = &o.accelerator_id
            && !accelerators.contains(a.as_str())
        {
            c.fail("accelerator_id", a, Problem::NoSuchRow { table: "accelerators" });
        }
        sources_known(&mut c, "source", &o.source);
    }

    let mut ids = HashMap::new();
    for (i, e) in t.efficiency.iter().enumerate() {
        c.at("efficiency", line(i), &e.id);
        c.id(&mut ids, &e.id);
        if !(e.ratio.is_finite() && e.ratio > 0.0) {
            c.fail("ratio", e.ratio, Problem::PositiveRatio);
        }
        for (field, id) in
            [("accelerator_id", &e.accelerator_id), ("reference_accelerator_id", &e.reference_accelerator_id)]
        {
            if !accelerators.contains(id.as_str()) {
                c.fail(field, id, Problem::NoSuchRow { table: "accelerators" });
            }
        }
        c.provenance(&e.source);
        sources_known(&mut c, "source", &e.source);
    }

    let mut ids = HashMap::new();
    for (i, m) in t.measurements.iter().enumerate() {
        c.at("measurements", line(i), &m.id);
        c.id(&mut ids, &m.id);
        c.measurement(m);
        if !accelerators.contains(m.accelerator_id.as_str()) {
            c.fail("accelerator_id", &m.accelerator_id, Problem::NoSuchRow { table: "accelerators" });
        }
        sources_known(&mut c, "source", &m.source);
    }

    let mut ids = HashMap::new();
    for (i, s) in t.scaling.iter().enumerate() {
        c.at("scaling", line(i), &s.id);
        c.id(&mut ids, &s.id);
        if !(s.efficiency.is_finite() && s.efficiency > 0.0 && s.efficiency <= 1.0) {
            c.fail("efficiency", s.efficiency, Problem::ScalingShare);
        }
        c.amount("accelerators", s.accelerators);
        c.provenance(&s.source);
        sources_known(&mut c, "source", &s.source);
    }

    let mut ids = HashMap::new();
    for (i, x) in t.export_controls.iter().enumerate() {
        c.at("export_controls", line(i), &x.id);
        c.id(&mut ids, &x.id);
        c.provenance(&x.source);
        sources_known(&mut c, "source", &x.source);
    }

    // A node fact describes an instance type, whose offers an import may
    // bring later; data/catalog/check.py holds the bundled rows to the offers.
    let mut ids = HashMap::new();
    for (i, n) in t.nodes.iter().enumerate() {
        c.at("nodes", line(i), &n.id);
        c.id(&mut ids, &n.id);
        for (field, value) in [
            ("accelerators_per_node", n.accelerators_per_node),
            ("scale_up_gbps", n.scale_up_gbps),
            ("scale_out_gbps", n.scale_out_gbps),
            ("max_cluster_accelerators", n.max_cluster_accelerators),
        ] {
            c.amount(field, value);
        }
        if !providers.contains(n.provider_id.as_str()) {
            c.fail("provider_id", &n.provider_id, Problem::NoSuchRow { table: "providers" });
        }
        if let Some(a) = &n.accelerator_id
            && !accelerators.contains(a.as_str())
        {
            c.fail("accelerator_id", a, Problem::NoSuchRow { table: "accelerators" });
        }
        c.provenance(&n.source);
        sources_known(&mut c, "source", &n.source);
    }

    let mut ids = HashMap::new();
    for (i, r) in t.reference_rates.iter().enumerate() {
        c.at("reference_rates", line(i), r.currency.code());
        c.id(&mut ids, r.currency.code());
        if !(r.cny_per_unit.is_finite() && r.cny_per_unit > 0.0) {
            c.fail("cny_per_unit", r.cny_per_unit, Problem::PositiveRatio);
        }
        c.provenance(&r.source);
        sources_known(&mut c, "source", &r.source);
    }
    c.errors
}
