//! SkyPilot catalogue `vms.csv` files: one offer per row and billing mode,
//! with the quirks of the clouds that need them (GCP, Vast).

use crate::Upfront;
use std::fmt::Write as _;

use foldhash::{HashMap, HashMapExt, HashSet};
use suanli_model::Currency;

use super::landing::{Parsed, field_too_long, push_slug, reject};
use super::{Provenance, SkipReason, Skipped};
use crate::Error;
use crate::check::{Problem, RowError};
use crate::rows::{BillingMode, Offer, PriceUnit};
/// A SkyPilot cloud as the importer tells them apart, parsed once from its
/// SkyPilot name: the clouds whose files are read in a way of their own, and
/// every other by its name (read the plain way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cloud<'a> {
    /// GPU-only rows priced per accelerator, and machine types whose rows
    /// price only the host.
    Gcp,
    /// `GpuInfo`'s memory is the total over the offer's GPUs.
    Vast,
    /// Any other cloud, by its SkyPilot name.
    Other(&'a str),
}

impl<'a> Cloud<'a> {
    fn parse(name: &'a str) -> Cloud<'a> {
        match name {
            "gcp" => Cloud::Gcp,
            "vast" => Cloud::Vast,
            other => Cloud::Other(other),
        }
    }

    /// The SkyPilot name (the alias table's `skypilot:<cloud>` rows).
    fn name(self) -> &'a str {
        match self {
            Cloud::Gcp => "gcp",
            Cloud::Vast => "vast",
            Cloud::Other(name) => name,
        }
    }
}

/// One SkyPilot `vms.csv` row, by column name (files differ in column
/// order and AWS has five more columns).
struct SkypilotRow<'a> {
    line: usize,
    instance: &'a str,
    name: &'a str,
    count: &'a str,
    gpu_info: &'a str,
    price: &'a str,
    spot: &'a str,
    region: &'a str,
    zone: &'a str,
}

/// Accelerator memory from SkyPilot's `GpuInfo`, a Python-dict string:
/// `{'Gpus': [{'Name': 'A100', ..., 'MemoryInfo': {'SizeInMiB': 40960}}], ...}`.
fn gpu_memory_gib(info: &str) -> Option<f64> {
    let at = info.find("'SizeInMiB':")? + "'SizeInMiB':".len();
    let digits: String = info[at..].trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    digits.parse::<f64>().ok().map(|mib| mib / 1024.0).filter(|g| *g > 0.0)
}

/// The count as an id piece: `8`, `0.5`.
fn count_text(n: f64) -> String {
    let mut out = String::new();
    push_count(&mut out, n);
    out
}

fn push_count(out: &mut String, n: f64) {
    if n.fract() == 0.0 {
        write!(out, "{}", n as i64).ok();
    } else {
        push_slug(out, &n.to_string());
    }
}

/// Where a price applies, as an id piece: the zone when it names its region
/// (GCP `us-central1-a`), else region and zone (AWS `us-east-2` `use2-az1`).
#[cfg(test)]
fn place(region: &str, zone: &str) -> String {
    let mut out = String::new();
    push_place(&mut out, region, zone);
    out
}

fn push_place(out: &mut String, region: &str, zone: &str) {
    let start = out.len();
    push_slug(out, region);
    if zone.trim().is_empty() {
        return;
    }
    let region_end = out.len();
    push_slug(out, zone);
    if out[region_end..].starts_with(&out[start..region_end]) {
        out.replace_range(start..region_end, "");
    } else {
        out.insert(region_end, '-');
    }
}

/// An offer's id without its billing mode: every column that tells a row
/// apart (`provider-instance-gpu-xCOUNT-place`).
fn id_base(provider: &str, instance: &str, gpu: &str, count: f64, region: &str, zone: &str) -> String {
    let mut id = String::with_capacity(64);
    for piece in [provider, instance, gpu] {
        push_slug(&mut id, piece);
        id.push('-');
    }
    id.push('x');
    push_count(&mut id, count);
    id.push('-');
    push_place(&mut id, region, zone);
    id
}

/// A price column: `None` when empty, else a number above 0.
fn price_column(
    text: &str,
    field: &str,
    line: usize,
    id: &str,
    rejected: &mut Vec<RowError>,
) -> Result<Option<f64>, ()> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(Some(x)),
        Ok(_) => {
            rejected.push(reject(
                line,
                id,
                field,
                text,
                Problem::Expected("a price above 0 (the feed publishes 0 for none)"),
            ));
            Err(())
        }
        Err(_) => {
            rejected.push(reject(line, id, field, text, Problem::NotANumber));
            Err(())
        }
    }
}

/// The spot column: `None` when empty or 0 (Vast's way of saying none; the
/// row still lands on demand, and the 0 is reported), else a price.
fn spot_column(row: &SkypilotRow<'_>, id: &str, parsed: &mut Parsed) -> Option<f64> {
    if row.spot.parse::<f64>().is_ok_and(|x| x == 0.0) {
        let reason = SkipReason::NoSpot;
        parsed.skipped.push(Skipped { line: row.line, subject: row.instance.to_owned(), reason });
        return None;
    }
    price_column(row.spot, "SpotPrice", row.line, id, &mut parsed.rejected).ok().flatten()
}

/// Where each column of a SkyPilot file is (`usize::MAX`: absent).
struct SkypilotColumns {
    instance: usize,
    name: usize,
    count: usize,
    gpu_info: usize,
    price: usize,
    spot: usize,
    region: usize,
    zone: usize,
}

impl SkypilotColumns {
    fn row<'r>(&self, line: usize, r: &'r csv::StringRecord) -> SkypilotRow<'r> {
        let f = |i: usize| r.get(i).unwrap_or("").trim();
        SkypilotRow {
            line,
            instance: f(self.instance),
            name: f(self.name),
            count: f(self.count),
            gpu_info: f(self.gpu_info),
            price: f(self.price),
            spot: f(self.spot),
            region: f(self.region),
            zone: f(self.zone),
        }
    }
}

/// Reads the next record into `record` (one buffer for the whole file):
/// `None` at the end, an error for a record that does not parse, has not
/// the header's number of fields, or has a field over the limit.
fn next_record(
    reader: &mut csv::Reader<&[u8]>,
    record: &mut csv::StringRecord,
    headers: &csv::StringRecord,
    line: usize,
) -> Option<Result<(), RowError>> {
    match reader.read_record(record) {
        Ok(false) => None,
        Ok(true) if record.len() != headers.len() => Some(Err(reject(
            line,
            "",
            "",
            "",
            Problem::Parser(format!(
                "found a record with {} fields, but the header has {}",
                record.len(),
                headers.len()
            )),
        ))),
        Ok(true) => Some(field_too_long(record, headers, line).map_or(Ok(()), Err)),
        Err(e) => Some(Err(reject(line, "", "", "", Problem::Parser(e.to_string())))),
    }
}

/// A GCP GPU-only row, kept for the host rows that add it.
struct GpuOnly {
    line: usize,
    price: String,
    spot: String,
}

/// The offers of one priced thing (on demand, and spot when the feed has
/// a spot price that differs).
struct Priced<'a> {
    row: &'a SkypilotRow<'a>,
    id_base: String,
    provider: &'a str,
    accelerator: &'a str,
    instance: Option<&'a str>,
    count: f64,
    unit: PriceUnit,
    /// Multiplies the feed's price into the stored one (1 ÷ count for a
    /// per-accelerator price).
    scale: f64,
    on_demand: Option<f64>,
    spot: Option<f64>,
    notes: Vec<String>,
}

fn push_priced(p: Priced<'_>, prov: &Provenance, parsed: &mut Parsed) {
    let line = p.row.line;
    let notes = Some(p.notes.join("; ")).filter(|n| !n.is_empty());
    let offer = |billing: BillingMode, price: f64| Offer {
        id: {
            let mut id = String::with_capacity(p.id_base.len() + 10);
            id.push_str(&p.id_base);
            id.push('-');
            id.extend(billing.key().chars().map(|c| if c == '_' { '-' } else { c }));
            id
        },
        provider_id: p.provider.to_owned(),
        accelerator_id: Some(p.accelerator.to_owned()),
        instance: p.instance.map(str::to_owned),
        region: Some(p.row.region.trim().to_owned()),
        billing_mode: billing,
        accelerators_per_instance: Some(p.count),
        price: price * p.scale,
        price_high: None,
        price_unit: p.unit,
        currency: Currency::USD,
        upfront: Some(Upfront::None),
        interconnect: None,
        as_of: prov.as_of.clone(),
        source: prov.source.clone(),
        confidence: prov.confidence,
        notes: notes.clone(),
    };
    match p.on_demand {
        Some(x) => parsed.offers.push((line, offer(BillingMode::OnDemand, x), true)),
        None => parsed.rejected.push(reject(line, &p.id_base, "Price", "", Problem::Required)),
    }
    match (p.spot, p.on_demand) {
        (Some(s), Some(o)) if s == o => parsed.skipped.push(Skipped {
            line,
            subject: p.row.instance.to_owned(),
            reason: SkipReason::SpotEqualsOnDemand,
        }),
        (Some(s), _) => parsed.offers.push((line, offer(BillingMode::Spot, s), true)),
        (None, _) => {}
    }
}

/// The SkyPilot importer. Every row lands (one offer per billing mode) or
/// is reported with its reason; ids are built from every column that tells
/// rows apart (instance, accelerator, count, region, zone, billing mode), so
/// each availability zone is an offer of its own (the zone is in the id and
/// the notes). GCP GPU-only rows (empty `InstanceType`) land as prices per
/// accelerator; GCP machine types whose accelerator columns SkyPilot leaves
/// empty (a2, a3, a4, g2, g4) land with their GPUs from the alias table and
/// the GPU-only price of the same zone added, as SkyPilot itself adds them.
pub(super) fn parse_skypilot(
    text: &str,
    given_provider: &str,
    known_ids: &[String],
    p: &Provenance,
) -> Result<Parsed, Error> {
    read_skypilot(text, given_provider, known_ids, p, Threads::Two)
}

/// How many threads read a large file's rows (one: a test's reference reading).
#[derive(Clone, Copy, PartialEq)]
enum Threads {
    #[cfg(test)]
    One,
    Two,
}

fn read_skypilot(
    text: &str,
    given_provider: &str,
    known_ids: &[String],
    p: &Provenance,
    threads: Threads,
) -> Result<Parsed, Error> {
    let (cloud_name, provider) = crate::aliases::skypilot_cloud(given_provider);
    let cloud = Cloud::parse(&cloud_name);
    let provider = provider.unwrap_or_else(|| given_provider.trim().to_owned());
    let mut reader = records(text.as_bytes(), true);
    let headers =
        reader.headers().map_err(|e| Error::Csv { file: "skypilot".into(), line: 1, message: e.to_string() })?.clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    for required in ["InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region"] {
        if column(required).is_none() {
            return Err(Error::Csv {
                file: "skypilot".into(),
                line: 1,
                message: format!("not a SkyPilot vms.csv: the header has no {required} column"),
            });
        }
    }
    let at = |name: &str| column(name).unwrap_or(usize::MAX);
    let columns = SkypilotColumns {
        instance: at("InstanceType"),
        name: at("AcceleratorName"),
        count: at("AcceleratorCount"),
        gpu_info: at("GpuInfo"),
        price: at("Price"),
        spot: at("SpotPrice"),
        region: at("Region"),
        zone: at("AvailabilityZone"),
    };
    let body = &text.as_bytes()[usize::try_from(reader.position().byte()).unwrap_or(text.len())..];
    let file = SkypilotFile {
        cloud,
        provider: &provider,
        known_ids: known_ids.iter().map(String::as_str).collect(),
        gpu_only: if cloud == Cloud::Gcp { gpu_only_prices(body, &headers, &columns) } else { HashMap::new() },
        headers: &headers,
        columns,
        p,
    };
    Ok(file.parse(body, threads))
}

/// The records of CSV bytes, each checked against the header by [`next_record`].
fn records(bytes: &[u8], has_headers: bool) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new().flexible(true).has_headers(has_headers).from_reader(bytes)
}

/// GCP's GPU-only prices by (name, count, zone), for the machine types whose
/// rows price only the host: a first pass over the file's records keeps them.
fn gpu_only_prices(
    body: &[u8],
    headers: &csv::StringRecord,
    columns: &SkypilotColumns,
) -> HashMap<(String, String, String), GpuOnly> {
    let mut gpu_only = HashMap::new();
    let (mut reader, mut record) = (records(body, false), csv::StringRecord::new());
    for line in 2.. {
        let Some(read) = next_record(&mut reader, &mut record, headers, line) else { break };
        if read.is_err() {
            continue;
        }
        let r = columns.row(line, &record);
        if r.instance.is_empty() && !r.name.is_empty() {
            let count = r.count.parse::<f64>().map(count_text).unwrap_or_default();
            let price = GpuOnly { line, price: r.price.to_owned(), spot: r.spot.to_owned() };
            gpu_only.entry((r.name.to_lowercase(), count, r.zone.to_owned())).or_insert(price);
        }
    }
    gpu_only
}

/// What every row of one SkyPilot file is read with.
struct SkypilotFile<'a> {
    cloud: Cloud<'a>,
    provider: &'a str,
    known_ids: HashSet<&'a str>,
    gpu_only: HashMap<(String, String, String), GpuOnly>,
    headers: &'a csv::StringRecord,
    columns: SkypilotColumns,
    p: &'a Provenance,
}

impl SkypilotFile<'_> {
    fn known(&self, id: &str) -> bool {
        self.known_ids.contains(id)
    }

    /// Every record of `body` (the file after its header). A large file is
    /// read in two halves on two threads, the second from the first line
    /// break past the middle; the first half's reader stops where the second
    /// began, and if no record began there (a quoted field spanning the
    /// break), it reads on to the end itself and the second half is dropped.
    /// Either way the rows and their lines are those of one reading.
    fn parse(&self, body: &[u8], threads: Threads) -> Parsed {
        let mut parsed = Parsed::default();
        let mut reader = records(body, false);
        let Some(cut) = second_half(body).filter(|_| threads == Threads::Two) else {
            self.parse_rows(&mut reader, u64::MAX, &mut parsed);
            return parsed;
        };
        let second = std::thread::scope(|s| {
            let second = s.spawn(|| {
                let mut second = Parsed::default();
                self.parse_rows(&mut records(&body[cut..], false), u64::MAX, &mut second);
                second
            });
            let stopped = self.parse_rows(&mut reader, cut as u64, &mut parsed);
            let second = second.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            (stopped == cut as u64).then_some(second)
        });
        match second {
            Some(second) => parsed.append(second),
            None => {
                self.parse_rows(&mut reader, u64::MAX, &mut parsed);
            }
        }
        parsed
    }

    /// Reads records into `parsed` until the next would start at or past
    /// byte `end` or the input ends; returns the byte it stopped at. A row's
    /// line is counted on from `parsed`'s rows.
    fn parse_rows(&self, reader: &mut csv::Reader<&[u8]>, end: u64, parsed: &mut Parsed) -> u64 {
        let mut record = csv::StringRecord::new();
        // Feeds repeat a handful of instance types over many regions: each is looked up once.
        let mut alias_cache: HashMap<String, Option<&crate::aliases::Alias>> = HashMap::new();
        let mut alias_key = String::new();
        loop {
            let at = reader.position().byte();
            if at >= end {
                return at;
            }
            let line = parsed.rows + 2;
            let Some(read) = next_record(reader, &mut record, self.headers, line) else { return at };
            parsed.rows += 1;
            if let Err(e) = read {
                parsed.rejected.push(e);
                continue;
            }
            let row = &self.columns.row(line, &record);
            let subject = if row.instance.is_empty() { row.name } else { row.instance };
            let skip = |parsed: &mut Parsed, reason: SkipReason| {
                parsed.skipped.push(Skipped { line, subject: subject.to_owned(), reason });
            };
            if row.region.is_empty() {
                parsed.rejected.push(reject(line, "", "Region", "", Problem::Required));
                continue;
            }
            if row.instance.is_empty() && row.name.is_empty() {
                parsed.rejected.push(reject(line, "", "InstanceType", "", Problem::Required));
                continue;
            }
            let count_from_feed = row.count.parse::<f64>().ok().filter(|c| c.is_finite() && *c > 0.0);
            let mut per_gpu_mib_total = gpu_memory_gib(row.gpu_info);
            // Vast's SizeInMiB is the total over all GPUs of the offer.
            if self.cloud == Cloud::Vast {
                per_gpu_mib_total = per_gpu_mib_total.zip(count_from_feed).map(|(m, n)| m / n);
            }
            let memory = per_gpu_mib_total;

            // A GCP host row: its GPUs are priced on GPU-only rows of the same zone.
            let host = (self.cloud == Cloud::Gcp && row.name.is_empty() && !row.instance.is_empty())
                .then(|| crate::aliases::gcp_host(row.instance))
                .flatten();
            if let Some((alias, count)) = host {
                let gpu = alias.name.clone().unwrap_or_default();
                match (alias.action, &alias.accelerator_id, count) {
                    (crate::aliases::Action::Map, Some(acc), Some(count)) if self.known(acc) => {
                        let id_base = id_base(self.provider, row.instance, &gpu, count, row.region, row.zone);
                        let Some(g) = self.gpu_only.get(&(gpu.to_lowercase(), count_text(count), row.zone.to_owned()))
                        else {
                            skip(parsed, SkipReason::HostWithoutGpuPrice { gpu, count, zone: row.zone.to_owned() });
                            continue;
                        };
                        let Ok(host_price) = price_column(row.price, "Price", line, &id_base, &mut parsed.rejected)
                        else {
                            continue;
                        };
                        let host_spot = spot_column(row, &id_base, parsed);
                        let gpu_price = g.price.parse::<f64>().ok().filter(|x| *x > 0.0);
                        let gpu_spot = g.spot.parse::<f64>().ok().filter(|x| *x > 0.0);
                        let on_demand = host_price.zip(gpu_price).map(|(h, g)| h + g);
                        let spot = host_spot.zip(gpu_spot).map(|(h, g)| h + g);
                        let mut notes = vec![format!(
                            "host {} + {} × {gpu} {} (GPU-only line {}); SkyPilot prices GCP GPUs apart and adds them",
                            row.price,
                            count_text(count),
                            g.price,
                            g.line
                        )];
                        if !row.zone.is_empty() {
                            notes.push(format!("zone {}", row.zone));
                        }
                        push_priced(
                            Priced {
                                row,
                                id_base,
                                provider: self.provider,
                                accelerator: acc,
                                instance: Some(row.instance),
                                count,
                                unit: PriceUnit::InstanceHour,
                                scale: 1.0,
                                on_demand,
                                spot,
                                notes,
                            },
                            self.p,
                            parsed,
                        );
                    }
                    (crate::aliases::Action::Map, Some(acc), _) if !self.known(acc) => {
                        parsed.rejected.push(reject(
                            line,
                            "",
                            "accelerator_id",
                            acc,
                            Problem::NoSuchRow { table: "accelerators" },
                        ));
                    }
                    _ => {
                        skip(parsed, SkipReason::Alias { name: row.instance.to_owned(), reason: alias.reason.clone() })
                    }
                }
                continue;
            }

            alias_key.clear();
            write!(alias_key, "{}\0{:?}\0{}", row.name, memory.map(|m| m.round() as i64), row.instance).ok();
            let alias = match alias_cache.get(alias_key.as_str()) {
                Some(alias) => *alias,
                None => {
                    let alias = crate::aliases::skypilot(self.cloud.name(), row.name, memory, row.instance);
                    alias_cache.insert(alias_key.clone(), alias);
                    alias
                }
            };
            let Some(alias) = alias else {
                let name = row.name.to_owned();
                *parsed.unknown_names.entry(name.clone()).or_insert(0) += 1;
                skip(parsed, SkipReason::UnknownName { name });
                continue;
            };
            let accelerator = match (alias.action, &alias.accelerator_id) {
                (crate::aliases::Action::Map, Some(acc)) => acc.as_str(),
                (crate::aliases::Action::Missing, _) => {
                    let name = if row.name.is_empty() { row.instance } else { row.name };
                    skip(
                        parsed,
                        SkipReason::MissingAccelerator { name: name.to_owned(), reason: alias.reason.clone() },
                    );
                    continue;
                }
                _ => {
                    let name = if row.name.is_empty() { row.instance } else { row.name };
                    skip(parsed, SkipReason::Alias { name: name.to_owned(), reason: alias.reason.clone() });
                    continue;
                }
            };
            let Some(count) = alias.count.or(count_from_feed) else {
                parsed.rejected.push(reject(line, "", "AcceleratorCount", row.count, Problem::PositiveRatio));
                continue;
            };
            let gpu_only_row = row.instance.is_empty();
            let instance_piece = if gpu_only_row { "gpu" } else { row.instance };
            let id_base = id_base(self.provider, instance_piece, row.name, count, row.region, row.zone);
            let Ok(on_demand) = price_column(row.price, "Price", line, &id_base, &mut parsed.rejected) else {
                continue;
            };
            let spot = spot_column(row, &id_base, parsed);
            let mut notes = Vec::new();
            if gpu_only_row {
                notes.push(format!(
                    "GPU-only price: {} for {} × {} attached to a VM, host not included",
                    row.price,
                    count_text(count),
                    row.name
                ));
            }
            if alias.count.is_some() && count_from_feed != alias.count {
                notes.push(format!(
                    "{} GPUs per instance (the feed says {:?}; alias table)",
                    count_text(count),
                    row.count
                ));
            }
            if !row.zone.is_empty() {
                notes.push(format!("zone {}", row.zone));
            }
            push_priced(
                Priced {
                    row,
                    id_base,
                    provider: self.provider,
                    accelerator,
                    instance: (!gpu_only_row).then_some(row.instance),
                    count,
                    unit: if gpu_only_row { PriceUnit::AcceleratorHour } else { PriceUnit::InstanceHour },
                    scale: if gpu_only_row { 1.0 / count } else { 1.0 },
                    on_demand,
                    spot,
                    notes,
                },
                self.p,
                parsed,
            );
        }
    }
}

/// Where a CSV body is split for two threads: where the first line break
/// past its middle leaves a reader (after `\n`, or at the `\n` of `\r\n`);
/// `None` for a body under [`SPLIT_MIN_BYTES`].
fn second_half(body: &[u8]) -> Option<usize> {
    if body.len() < SPLIT_MIN_BYTES {
        return None;
    }
    let mid = body.len() / 2;
    let lf = mid + body[mid..].iter().position(|b| *b == b'\n')?;
    let cut = if body[lf - 1] == b'\r' { lf } else { lf + 1 };
    (cut < body.len()).then_some(cut)
}

/// A body smaller than this is read on one thread (a thread costs more than it saves).
const SPLIT_MIN_BYTES: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixture's rows repeated past the size that is read on two threads,
    /// with `middle` put in at the middle of the rows.
    fn large(cloud: &str, middle: &str) -> String {
        let path = format!("{}/tests/fixtures/skypilot/v9/{cloud}/vms.csv", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let (header, rows) = text.split_once('\n').unwrap();
        let times = SPLIT_MIN_BYTES / rows.len() + 2;
        let mut out = format!("{header}\n");
        for i in 0..times {
            if i == times / 2 {
                out.push_str(middle);
            }
            // Each copy in zones of its own, so that ids differ as in a real feed.
            out.push_str(&rows.replace("-az", &format!("-c{i}az")).replace(",us-", &format!(",c{i}us-")));
        }
        out
    }

    fn read(text: &str, provider: &str, threads: Threads) -> Parsed {
        let known: Vec<String> = crate::bundled::tables().unwrap().accelerators.into_iter().map(|a| a.id).collect();
        let p = Provenance { source: "test".into(), as_of: None, confidence: crate::Confidence::B };
        read_skypilot(text, provider, &known, &p, threads).unwrap()
    }

    /// Where a reader of `text`'s rows stops before a record at or past the
    /// second half's start (the two-thread reading is used only when it is that
    /// start), and that start.
    fn stop_and_cut(text: &str) -> (u64, usize) {
        let mut reader = records(text.as_bytes(), true);
        reader.headers().unwrap();
        let body = &text.as_bytes()[reader.position().byte() as usize..];
        let cut = second_half(body).unwrap();
        let (mut reader, mut record) = (records(body, false), csv::StringRecord::new());
        while reader.position().byte() < cut as u64 && reader.read_record(&mut record).unwrap() {}
        (reader.position().byte(), cut)
    }

    #[test]
    fn a_large_file_read_on_two_threads_gives_what_one_reading_gives() {
        // Rows that break rules on both sides of the middle, a row of too few fields.
        let bad = "p9.bad,H100,8.0,1,1,,not-a-price,,us-east-1,use1-az1,x86_64,,False,,\nshort,row\n";
        for (cloud, provider) in [("aws", "aws"), ("gcp", "gcp"), ("vast", "vast")] {
            let text = large(cloud, bad);
            let (stop, cut) = stop_and_cut(&text);
            assert_eq!(stop, cut as u64, "{cloud}: the second half is not where a record starts");
            let (one, two) = (read(&text, provider, Threads::One), read(&text, provider, Threads::Two));
            assert!(one.offers.len() > 1000 && !one.rejected.is_empty(), "{cloud}: {} offers", one.offers.len());
            assert!(one.rejected.iter().any(|e| e.value.is_empty() && e.line.is_some()), "{cloud}: the short row");
            assert_eq!(one, two, "{cloud}");
        }
    }

    #[test]
    fn a_quoted_field_across_the_middle_is_read_as_one_reading_reads_it() {
        // A multi-line quoted field spanning the byte where the second half would start.
        let rows = "g4dn.xlarge,T4,1.0,4.0,16.0,,0.526,0.2,us-east-1,use1-az1,x86_64,ssd,True,125,1\n";
        let spanning = format!(
            "g4dn.2xlarge,T4,1.0,8.0,32.0,\"{}\",0.752,0.3,us-east-1,use1-az1,x86_64,ssd,True,225,1\n",
            "line\n".repeat(1 << 18)
        );
        let header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Arch,LocalDiskType,NVMeSupported,LocalDiskSize,LocalDiskCount\n";
        let text = format!("{header}{}{spanning}{}", rows.repeat(8_000), rows.repeat(8_000));
        let body = &text.as_bytes()[header.len()..];
        assert!(body[..second_half(body).unwrap()].ends_with(b"line\n"), "the break is not inside the quoted field");
        let (stop, cut) = stop_and_cut(&text);
        assert!(stop > cut as u64);
        let (one, two) = (read(&text, "aws", Threads::One), read(&text, "aws", Threads::Two));
        assert_eq!(one.rows, 16_001);
        assert_eq!(one, two);
    }

    #[test]
    fn reads_gpu_memory_from_the_python_dict() {
        let info = "{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 40960}";
        assert_eq!(gpu_memory_gib(info), Some(40.0));
        assert_eq!(gpu_memory_gib(""), None);
    }

    #[test]
    fn places_name_the_zone_once() {
        assert_eq!(place("us-central1", "us-central1-a"), "us-central1-a");
        assert_eq!(place("us-east-2", "use2-az1"), "us-east-2-use2-az1");
        assert_eq!(place("us-east-1", ""), "us-east-1");
    }
}
