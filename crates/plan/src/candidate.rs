//! Candidates built from offers: a rental on one offer, a purchase sized
//! to the demand, and (steady demand) mixes sized by the optimiser. Each is
//! a scenario option priced by the engine, and the same option as written
//! into a scenario (catalogue references kept).

use suanli_catalog::BillingMode;
use suanli_model::optimise::Outcome;
use suanli_model::{
    Billing, Checked, Demand, ExportStatus, Lang, Maturity, OnDemandPool, OptimiseSpec, OptionKind, OptionPorting,
    OptionSpec, OwnedPool, ReservedPool, Scenario, SpotPool, Stability, Supply,
};

use crate::cluster::{Cluster, NotFeasible, ScalingModel, consumer};
use crate::constraints::{Limits, PoolFacts};
use crate::market::{Offered, per_server, rate};
use crate::output::{NotFeasibleJson, PoolKind};
use crate::provenance::{provenance, ratio_source};

/// The porting maturity assumed for an accelerator off CUDA (the catalogue
/// has no maturity per workload).
const ASSUMED_MATURITY: Maturity = Maturity::Beta;

/// A candidate before pricing: the option evaluated (prices filled in) and
/// the option written (offers referenced).
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub priced: OptionSpec,
    pub written: OptionSpec,
    pub pools: Vec<PoolFacts>,
    pub cluster: Cluster,
    pub spot_overhead: Option<f64>,
}

/// What every candidate of one search shares.
pub(crate) struct Search<'a> {
    pub s: &'a Scenario,
    pub limits: &'a Limits,
    pub model: &'a ScalingModel,
    pub all: &'a [Offered],
    pub lang: Lang,
    /// Peak reference GPUs of a steady demand (0 for a job), prepared once.
    pub peak_ref_gpus: f64,
}

impl Search<'_> {
    /// Accelerators one run needs: the job's cluster, or the typical job
    /// or serving replica of a steady demand.
    pub fn run_accelerators(&self) -> u32 {
        self.s.demand.cluster_accelerators()
    }

    /// The cluster an offer becomes, or why it cannot.
    pub fn cluster(&self, x: &Offered, owned: bool) -> Result<(Cluster, Option<f64>), Box<NotFeasibleJson>> {
        let cluster = Cluster::of(
            x.node.as_ref(),
            x.view.offer.accelerators_per_instance,
            self.run_accelerators(),
            owned,
            self.model,
        );
        let mut reason = cluster.not_feasible(owned, consumer(&x.accelerator), self.limits.allow_consumer_clusters);
        let mut overhead = None;
        if reason.is_none() && x.mode() == BillingMode::Spot {
            let o = self.limits.spot.overhead(cluster.nodes);
            let on_demand = self.cheapest_feasible(BillingMode::OnDemand, &x.accelerator.id).map(|od| od.comparable);
            let pays = o <= crate::spot::MAX_OVERHEAD && on_demand.is_none_or(|od| x.comparable * (1.0 + o) < od);
            if !pays {
                reason = Some(NotFeasible::SpotDoesNotPay { overhead: o });
            }
            overhead = Some(o);
        }
        match reason {
            None => Ok((cluster, overhead)),
            Some(reason) => Err(Box::new(NotFeasibleJson {
                offer_id: x.id().to_owned(),
                label: label(x, self.lang),
                why: reason.describe(&cluster, self.lang),
                cluster,
                reason,
                price: x.comparable,
            })),
        }
    }

    /// The cheapest offer of a mode by price per useful hour that can be
    /// the run's cluster (not spot-checked): of the same accelerator when
    /// there is one.
    pub fn cheapest_feasible(&self, mode: BillingMode, accelerator: &str) -> Option<&Offered> {
        let fits = |o: &&Offered| {
            let c = Cluster::of(
                o.node.as_ref(),
                o.view.offer.accelerators_per_instance,
                self.run_accelerators(),
                false,
                self.model,
            );
            c.not_feasible(false, consumer(&o.accelerator), self.limits.allow_consumer_clusters).is_none()
        };
        let key = |o: &&Offered| o.comparable / o.ratio.ratio;
        let best = |same: bool| {
            self.all
                .iter()
                .filter(|o| o.mode() == mode && (!same || o.accelerator.id == accelerator))
                .filter(fits)
                .min_by(|a, b| key(a).total_cmp(&key(b)).then_with(|| a.id().cmp(b.id())))
        };
        best(true).or_else(|| best(false))
    }
}

/// The pool facts of an offer.
pub(crate) fn facts(x: &Offered, owned: bool) -> PoolFacts {
    PoolFacts {
        mode: x.mode(),
        offer_id: x.id().to_owned(),
        accelerator: x.accelerator.id.clone(),
        domestic: x.accelerator.domestic == Some(true),
        export_cn: x.accelerator.export_status_cn,
        provider: (!owned).then(|| x.provider.clone()),
        basis: x.ratio.basis,
        confidence: x.view.offer.confidence,
        source: x.view.offer.source.clone(),
    }
}

/// The option-level facts of an offer's accelerator: ratio, memory,
/// porting (off CUDA), supply, domestic, provider, scaling.
fn describe(o: &mut OptionSpec, q: &Search, x: &Offered, cluster: &Cluster, lead_months: Option<u32>) {
    let a = &x.accelerator;
    o.accelerator = Some(a.id.clone());
    o.efficiency_ratio = Some(x.ratio.ratio);
    o.sources.insert("efficiency_ratio".into(), ratio_source(&x.ratio));
    if cluster.nodes > 1 {
        o.scaling_efficiency = Some(cluster.scaling_efficiency);
        o.sources.insert("scaling_efficiency".into(), scaling_source(cluster));
    }
    if let Some(gb) = a.memory_gb {
        o.memory_gb_per_accelerator = Some(gb);
        o.sources.insert("memory_gb_per_accelerator".into(), format!("catalogue accelerator {} [{}]", a.id, a.source));
    }
    if !x.cuda() && q.s.porting.is_some() {
        o.porting = Some(OptionPorting { maturity: ASSUMED_MATURITY, adapter: a.framework_adapter.clone() });
        o.sources.insert(
            "porting.maturity".into(),
            "recommend assumption: beta for every accelerator off CUDA (the catalogue has no maturity per workload)"
                .into(),
        );
    }
    let spot = x.mode() == BillingMode::Spot;
    o.supply = Some(Supply {
        lead_time_months: lead_months.map(|m| [f64::from(m); 3]),
        export_status: Some(a.export_status_cn.unwrap_or(ExportStatus::Unknown)),
        export_change_probability: 0.0,
        export_change_delay_months: 0.0,
        export_change_extra_cost_share: 0.0,
        vendor_concentration: 1.0,
        stability: if spot { Stability::Fragile } else { Stability::Uncertain },
    });
    o.sources.insert(
        "supply.export_status".into(),
        format!("catalogue accelerator {}: export status for a buyer in China [{}]", a.id, a.source),
    );
    o.sources.insert(
        "supply.stability".into(),
        if spot { "recommend assumption: spot capacity can be reclaimed" } else { "recommend assumption" }.into(),
    );
    o.domestic = a.domestic;
    o.provider_country = x.provider.country.clone().filter(|_| x.is_rental());
    o.security = if x.is_rental() {
        x.provider.security.clone()
    } else {
        suanli_catalog::SECURITY_FLAGS.map(str::to_owned).to_vec()
    };
}

/// Where a cluster's scaling efficiency comes from, as a source text.
fn scaling_source(c: &Cluster) -> String {
    let facts =
        c.source.as_deref().map_or("no node facts in the catalogue".to_owned(), |s| format!("node facts [{s}]"));
    format!(
        "plan: {} nodes × {} over {}, fitted on measured multi-node runs (docs/recommend.md); {facts}",
        c.nodes,
        c.per_node,
        c.scale_out.label(Lang::En)
    )
}

/// A rent option on one offer.
pub(crate) fn rental(q: &Search, x: &Offered) -> Result<Candidate, Box<NotFeasibleJson>> {
    let (cluster, spot_overhead) = q.cluster(x, false)?;
    let offer = &x.view.offer;
    let mut o = OptionSpec::bare(format!("rent/{}", offer.id), OptionKind::Rent);
    o.label = bilingual(x);
    describe(&mut o, q, x, &cluster, None);
    let price = x.view.price_per_accel_hour;
    let (written, priced) = match offer.billing_mode {
        BillingMode::OnDemand => {
            o.billing = Some(Billing::OnDemand);
            let (w, p) = on_demand_pool(x, None);
            let mut written = o.clone();
            written.on_demand = Some(w);
            o.on_demand = Some(p);
            (written, o)
        }
        BillingMode::Spot => {
            o.billing = Some(Billing::Spot);
            let overhead = spot_overhead.unwrap_or(0.0);
            o.sources.insert("spot.interruption_overhead".into(), q.limits.spot.describe(cluster.nodes, Lang::En));
            let (w, p) = spot_pool(x, overhead, None);
            let mut written = o.clone();
            written.spot = Some(w);
            o.spot = Some(p);
            (written, o)
        }
        mode => {
            o.billing = Some(Billing::Reserved);
            let term_months = mode.term_months().unwrap_or(12);
            let pool = |offer: Option<String>, price, currency| ReservedPool {
                term_months,
                price_per_accel_hour: price,
                upfront_share: 0.0,
                accelerators: None,
                currency,
                efficiency_ratio: None,
                offer,
            };
            let mut written = o.clone();
            written.reserved = Some(pool(Some(offer.id.clone()), None, None));
            o.reserved = Some(pool(None, price, Some(offer.currency)));
            (written, o)
        }
    };
    let mut priced = priced;
    priced.sources.insert(format!("{}.price_per_accel_hour", pool_of(offer.billing_mode).key()), provenance(&x.view));
    Ok(Candidate { priced, written, pools: vec![facts(x, false)], cluster, spot_overhead })
}

/// The pool an offer's billing mode fills.
pub(crate) fn pool_of(mode: BillingMode) -> PoolKind {
    match mode {
        BillingMode::OnDemand => PoolKind::OnDemand,
        BillingMode::Spot => PoolKind::Spot,
        BillingMode::Purchase => PoolKind::Owned,
        _ => PoolKind::Reserved,
    }
}

/// An offer in the reader's language: provider, accelerator, instance,
/// region and billing.
pub(crate) fn label(x: &Offered, lang: Lang) -> String {
    let o = &x.view.offer;
    let who = match lang {
        Lang::Zh => x.provider.name_zh.as_deref(),
        Lang::En => None,
    }
    .or(x.view.provider_name.as_deref())
    .unwrap_or(&o.provider_id);
    let what = match lang {
        Lang::Zh => x.accelerator.name_zh.as_deref(),
        Lang::En => None,
    }
    .unwrap_or(&x.accelerator.name);
    [who, what, o.instance.as_deref().unwrap_or(""), o.region.as_deref().unwrap_or(""), o.billing_mode.label(lang)]
        .iter()
        .filter(|t| !t.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The label in the scenario format's "English / 中文" form.
fn bilingual(x: &Offered) -> String {
    let (en, zh) = (label(x, Lang::En), label(x, Lang::Zh));
    if en == zh { en } else { format!("{en} / {zh}") }
}

/// A mix's added pool as its label names it: provider and billing.
fn pool_label(x: &Offered, lang: Lang) -> String {
    let zh = match lang {
        Lang::Zh => x.provider.name_zh.as_deref(),
        Lang::En => None,
    };
    let who = zh.or(x.view.provider_name.as_deref()).unwrap_or(&x.view.offer.provider_id);
    format!("{who} {}", x.view.offer.billing_mode.label(lang))
}

/// A buy option on one purchase offer: the site's running costs from the
/// scenario's buy option, servers enough for the job's cluster or the
/// demand's peak, and (steady demand) the cheapest feasible on-demand
/// offer of the same accelerator, else of any, for overflow and the lead time.
pub(crate) fn owned(q: &Search, x: &Offered, site: &OwnedPool) -> Result<Candidate, Box<NotFeasibleJson>> {
    let (cluster, _) = q.cluster(x, true)?;
    let s = q.s;
    let offer = &x.view.offer;
    let n = per_server(&x.view).unwrap_or(1);
    let accelerators_needed = match &s.demand {
        Demand::Job(j) => f64::from(j.cluster_accelerators),
        _ => q.peak_ref_gpus / x.ratio.ratio,
    };
    let servers = ((accelerators_needed / f64::from(n)).ceil() as u32).max(1);
    let mut o = OptionSpec::bare(format!("buy/{}", offer.id), OptionKind::Buy);
    o.label = bilingual(x);
    describe(&mut o, q, x, &cluster, Some(site.lead_time_months));
    let site_rate = rate(s, site.currency.unwrap_or(s.currency)).unwrap_or(1.0);
    let mut pool = site.clone();
    pool.servers = servers;
    pool.accelerators_per_server = n;
    pool.capex_per_server = x.comparable / site_rate;
    pool.server_kw = site.server_kw / f64::from(site.accelerators_per_server.max(1)) * f64::from(n);
    pool.efficiency_ratio = None;
    o.owned = Some(pool);
    o.sources.insert("owned.capex_per_server".into(), provenance(&x.view));
    o.sources.insert(
        "owned.server_kw".into(),
        "recommend: the scenario's buy option's draw per accelerator × accelerators per server".into(),
    );
    let mut pools = vec![facts(x, true)];
    let mut written = o.clone();
    if !s.demand_is_job()
        && let Some(od) = q.cheapest_feasible(BillingMode::OnDemand, &x.accelerator.id)
    {
        let (w, p) = on_demand_pool(od, Some(od.ratio.ratio));
        written.on_demand = Some(w);
        o.on_demand = Some(p);
        o.sources.insert("on_demand.price_per_accel_hour".into(), provenance(&od.view));
        for target in [&mut o, &mut written] {
            target.sources.insert("on_demand.efficiency_ratio".into(), ratio_source(&od.ratio));
        }
        pools.push(facts(od, false));
    }
    Ok(Candidate { priced: o, written, pools, cluster, spot_overhead: None })
}

/// An on-demand pool on an offer: as written (offer id) and as priced.
fn on_demand_pool(x: &Offered, ratio: Option<f64>) -> (OnDemandPool, OnDemandPool) {
    let written = OnDemandPool {
        price_per_accel_hour: None,
        currency: None,
        efficiency_ratio: ratio,
        offer: Some(x.id().to_owned()),
    };
    let priced = OnDemandPool {
        price_per_accel_hour: x.view.price_per_accel_hour,
        currency: Some(x.view.offer.currency),
        offer: None,
        ..written.clone()
    };
    (written, priced)
}

/// A spot pool on an offer: as written and as priced.
fn spot_pool(x: &Offered, overhead: f64, ratio: Option<f64>) -> (SpotPool, SpotPool) {
    let written = SpotPool {
        price_per_accel_hour: None,
        interruption_overhead: overhead,
        availability: 1.0,
        currency: None,
        efficiency_ratio: ratio,
        offer: Some(x.id().to_owned()),
    };
    let priced = SpotPool {
        price_per_accel_hour: x.view.price_per_accel_hour,
        currency: Some(x.view.offer.currency),
        offer: None,
        ..written.clone()
    };
    (written, priced)
}

/// Mixes for a steady demand: each base (owned or reserved) sized by the
/// optimiser with the cheapest feasible on-demand and spot offers of its
/// accelerator (else of any) and routed by the scenario's priority rule.
pub(crate) fn mixes(q: &Search, bases: &[&Candidate]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for base in bases {
        let accelerator = &base.pools[0].accelerator;
        let od = q.cheapest_feasible(BillingMode::OnDemand, accelerator);
        let spot = q
            .cheapest_feasible(BillingMode::Spot, accelerator)
            .and_then(|x| q.cluster(x, false).ok().map(|(_, o)| (x, o.unwrap_or(0.0))));
        if od.is_none() && spot.is_none() {
            continue;
        }
        if let Some(c) = mix(q, base, od, spot) {
            out.push(c);
        }
    }
    out
}

/// One mix, sized by `suanli_model::optimise` over the three pools.
fn mix(q: &Search, base: &Candidate, od: Option<&Offered>, spot: Option<(&Offered, f64)>) -> Option<Candidate> {
    let mut template = base.priced.clone();
    template.on_demand = None;
    template.id = "base".into();
    if let Some(r) = template.reserved.as_mut() {
        r.accelerators = Some(1);
    }
    let mut options = vec![template];
    if let Some(x) = od {
        let mut o = OptionSpec::bare("od".into(), OptionKind::Rent);
        o.billing = Some(Billing::OnDemand);
        o.on_demand = Some(on_demand_pool(x, Some(x.ratio.ratio)).1);
        options.push(o);
    }
    if let Some((x, overhead)) = spot {
        let mut o = OptionSpec::bare("spot".into(), OptionKind::Rent);
        o.billing = Some(Billing::Spot);
        o.spot = Some(spot_pool(x, overhead, Some(x.ratio.ratio)).1);
        options.push(o);
    }
    let mut trial = q.s.clone();
    trial.options = options;
    trial.optimise = Some(OptimiseSpec {
        base: Some("base".into()),
        on_demand: od.map(|_| "od".into()),
        spot: spot.map(|_| "spot".into()),
        constraints: Default::default(),
    });
    let checked = Checked::new(trial).ok()?;
    let Ok(Outcome::Chosen(best)) = suanli_model::optimise::optimise(&checked) else { return None };
    let chosen = best.chosen.option;
    if chosen.kind != OptionKind::Mix {
        return None;
    }
    Some(mix_candidate(q, base, chosen, od, spot))
}

/// The optimiser's mix with the base's option-level facts and every pool's source.
fn mix_candidate(
    q: &Search,
    b: &Candidate,
    chosen: OptionSpec,
    od: Option<&Offered>,
    spot: Option<(&Offered, f64)>,
) -> Candidate {
    let mut priced = b.priced.clone();
    priced.id = format!("mix/{}", b.pools[0].offer_id);
    priced.kind = OptionKind::Mix;
    priced.billing = None;
    priced.owned = chosen.owned;
    priced.reserved = chosen.reserved;
    priced.on_demand = None;
    priced.spot = None;
    priced.sources.retain(|k, _| !k.starts_with("on_demand.") && !k.starts_with("spot."));
    let mut written = b.written.clone();
    written.id = priced.id.clone();
    written.kind = OptionKind::Mix;
    written.billing = None;
    written.on_demand = None;
    written.spot = None;
    if let (Some(w), Some(p)) = (written.owned.as_mut(), priced.owned.as_ref()) {
        w.servers = p.servers;
    }
    if let (Some(w), Some(p)) = (written.reserved.as_mut(), priced.reserved.as_ref()) {
        w.accelerators = p.accelerators;
    }
    let mut pools = vec![b.pools[0].clone()];
    // The base's label in each language, and each added pool's after it.
    let (base_en, base_zh) = b.priced.label.split_once(" / ").unwrap_or((&b.priced.label, &b.priced.label));
    let mut labels = vec![(base_en.to_owned(), base_zh.to_owned())];
    if let (Some(x), true) = (od, chosen.on_demand.is_some()) {
        let (w, p) = on_demand_pool(x, Some(x.ratio.ratio));
        written.on_demand = Some(w);
        priced.on_demand = Some(p);
        priced.sources.insert("on_demand.price_per_accel_hour".into(), provenance(&x.view));
        priced.sources.insert("on_demand.efficiency_ratio".into(), ratio_source(&x.ratio));
        pools.push(facts(x, false));
        labels.push((pool_label(x, Lang::En), pool_label(x, Lang::Zh)));
    }
    let mut spot_overhead = None;
    if let (Some((x, overhead)), true) = (spot, chosen.spot.is_some()) {
        let (w, p) = spot_pool(x, overhead, Some(x.ratio.ratio));
        written.spot = Some(w);
        priced.spot = Some(p);
        priced.sources.insert("spot.price_per_accel_hour".into(), provenance(&x.view));
        priced.sources.insert("spot.efficiency_ratio".into(), ratio_source(&x.ratio));
        let nodes = q.cluster(x, false).map_or(1, |(c, _)| c.nodes);
        priced.sources.insert("spot.interruption_overhead".into(), q.limits.spot.describe(nodes, Lang::En));
        pools.push(facts(x, false));
        labels.push((pool_label(x, Lang::En), pool_label(x, Lang::Zh)));
        spot_overhead = Some(overhead);
    }
    let en: Vec<&str> = labels.iter().map(|(en, _)| en.as_str()).collect();
    let zh: Vec<&str> = labels.iter().map(|(_, zh)| zh.as_str()).collect();
    priced.label = if en == zh { en.join(" + ") } else { format!("{} / {}", en.join(" + "), zh.join(" + ")) };
    written.label = priced.label.clone();
    written.sources = priced.sources.clone();
    Candidate { priced, written, pools, cluster: b.cluster.clone(), spot_overhead }
}
