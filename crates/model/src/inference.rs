//! How fast an accelerator serves an LLM: the decode step of a serving
//! engine that batches requests, on a replica of one or more accelerators.
//!
//! Each step reads the replica's weights once for the whole batch and every
//! sequence's KV cache, and does 2 · parameters FLOPs per sequence; it takes
//! the longer of the two at the utilisations below, plus a fixed overhead. The batch is the largest
//! the memory holds (each sequence holding its whole context) and the
//! latency class allows. The replica is the fewest accelerators that hold
//! the model, or a doubling of it up to the demand's `cluster_accelerators`
//! (a node), whichever serves most tokens per accelerator — as serving
//! engines choose their tensor-parallel size. An ESTIMATE, calibrated on
//! MLPerf Inference (`suanli catalog calibration`); a stated figure
//! (`tokens_per_second_per_ref_gpu`) always replaces it.

use crate::fit::{default_kv_bytes_per_token, inference_min_accelerators, usable_bytes};
use crate::scenario::{Inference, Precision};

/// Share of peak memory bandwidth a decode step reaches. An assumption
/// (serving engines report 60–80 %).
pub const BANDWIDTH_UTILISATION: f64 = 0.7;
/// The serving model's two fitted figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// Share of peak compute (at the served precision) that becomes output
    /// tokens, the prompts' processing included.
    pub compute_utilisation: f64,
    /// Time each step spends beyond its reads and arithmetic (scheduling,
    /// sampling, prompt chunks between decode steps), ms.
    pub step_overhead_ms: f64,
}

/// Fitted on MLPerf Inference's Llama 2 70B results of CUDA parts
/// (`suanli catalog calibration` fits them again from the catalogue, and a
/// test holds the two equal).
pub const FITTED: Fitted = Fitted { compute_utilisation: 0.41, step_overhead_ms: 22.0 };

/// The figures of one accelerator the model needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    /// Dense peak compute at the served precision, TFLOPS.
    pub dense_tflops: f64,
    /// Memory bandwidth, GB/s (1e9 bytes a second).
    pub bandwidth_gbps: f64,
    /// Memory of one accelerator, GB as vendors label it ([`crate::fit::BYTES_PER_MEMORY_GB`]).
    pub memory_gb: f64,
}

/// What is served, whatever it is served on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Served {
    /// Parameters of the model.
    pub parameters: f64,
    /// Number format of the weights.
    pub precision: Precision,
    /// KV cache bytes of one sequence at its whole context.
    pub kv_bytes_per_sequence: f64,
    /// The longest time per output token, ms; `None`: no bound.
    pub max_ms_per_token: Option<f64>,
    /// Accelerators a replica may span.
    pub max_replica: u32,
}

impl Served {
    /// The demand's model, context, latency class and replica bound.
    pub fn of(d: &Inference) -> Served {
        Served {
            parameters: d.parameters,
            precision: d.precision,
            kv_bytes_per_sequence: kv_bytes_per_token(d) * d.context_tokens,
            max_ms_per_token: d.latency.max_ms_per_token(),
            max_replica: d.cluster_accelerators,
        }
    }
}

/// Serving throughput of one replica.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput {
    /// Output tokens per second the replica serves, per accelerator in it.
    pub tokens_per_second_per_accelerator: f64,
    /// Accelerators in the replica.
    pub accelerators_per_replica: u32,
    /// Sequences decoded together in one step.
    pub batch: f64,
    /// Time of one decode step, ms: each sequence gets one token per step.
    pub ms_per_token: f64,
    /// The latency class's bound could not be met even at batch 1.
    pub latency_missed: bool,
}

/// The KV cache bytes per token the demand states, else the default rule.
pub fn kv_bytes_per_token(d: &Inference) -> f64 {
    d.kv_bytes_per_token.unwrap_or_else(|| default_kv_bytes_per_token(d.parameters, d.precision))
}

/// Serving throughput of the demand's model on a device with the fitted
/// figures; `None` when the model does not fit any number of them or a
/// figure is not positive.
pub fn decode_throughput(d: &Inference, dev: &Device) -> Option<Throughput> {
    serving_throughput(&Served::of(d), dev, FITTED)
}

/// Serving throughput with given figures (the calibration tries many), on
/// the best replica size.
pub fn serving_throughput(s: &Served, dev: &Device, f: Fitted) -> Option<Throughput> {
    if !(dev.dense_tflops > 0.0 && dev.bandwidth_gbps > 0.0 && dev.memory_gb > 0.0 && s.parameters > 0.0) {
        return None;
    }
    let weights = s.parameters * s.precision.bytes();
    let fewest = inference_min_accelerators(s.parameters, s.precision, s.kv_bytes_per_sequence, dev.memory_gb)?;
    let mut best = on_replica(s, dev, f, weights, fewest);
    let mut n = fewest;
    while n.checked_mul(2).is_some_and(|m| m <= s.max_replica) {
        n *= 2;
        let t = on_replica(s, dev, f, weights, n);
        if (best.latency_missed, -best.tokens_per_second_per_accelerator)
            > (t.latency_missed, -t.tokens_per_second_per_accelerator)
        {
            best = t;
        }
    }
    Some(best)
}

/// One replica of `n` accelerators: the largest batch memory and latency
/// allow, and the step it takes.
fn on_replica(s: &Served, dev: &Device, f: Fitted, weights: f64, n: u32) -> Throughput {
    let nf = f64::from(n);
    let kv = s.kv_bytes_per_sequence;
    let bandwidth = nf * dev.bandwidth_gbps * 1e9 * BANDWIDTH_UTILISATION;
    let compute = nf * dev.dense_tflops * 1e12 * f.compute_utilisation;
    let overhead = f.step_overhead_ms / 1e3;
    let step = |b: f64| ((weights + b * kv) / bandwidth).max(2.0 * s.parameters * b / compute) + overhead;
    let by_memory = ((nf * usable_bytes(dev.memory_gb) - weights) / kv).floor().max(1.0);
    let by_latency = s.max_ms_per_token.map(|ms| {
        let t = ms / 1e3 - overhead;
        ((t * bandwidth - weights) / kv).min(t * compute / (2.0 * s.parameters)).floor()
    });
    let batch = by_latency.map_or(by_memory, |b| b.min(by_memory)).max(1.0);
    let t = step(batch);
    Throughput {
        tokens_per_second_per_accelerator: batch / t / nf,
        accelerators_per_replica: n,
        batch,
        ms_per_token: t * 1e3,
        latency_missed: s.max_ms_per_token.is_some_and(|ms| t * 1e3 > ms + 1e-9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{LatencyClass, Precision};

    fn llama70(latency: LatencyClass) -> Inference {
        Inference {
            tokens_per_second: Some(1000.0),
            tokens_per_day: None,
            parameters: 70e9,
            precision: Precision::Bf16,
            context_tokens: 4096.0,
            latency,
            kv_bytes_per_token: Some(327_680.0),
            tokens_per_second_per_ref_gpu: None,
            throughput_source: String::new(),
            cluster_accelerators: 8,
        }
    }

    #[test]
    fn a_70b_model_on_the_reference_by_hand() {
        let a100 = Device { dense_tflops: 312.0, bandwidth_gbps: 2039.0, memory_gb: 80.0 };
        let t = decode_throughput(&llama70(LatencyClass::Batch), &a100).unwrap_or_else(|| panic!("fits"));
        // KV per sequence 327,680 × 4,096 = 1.342e9 B; 140e9 + 1.342e9 over 77.31e9 usable → 2 cards
        // at least; 2, 4 and 8 serve 66.0, 413.7 and 584.7 tokens/s per card: 8 it is.
        assert_eq!(t.accelerators_per_replica, 8);
        // Memory for KV: 8 × 77.31e9 − 140e9 = 478.5e9 → 356 sequences.
        assert_eq!(t.batch, 356.0);
        // Step: bandwidth (140e9 + 356 × 1.342e9) ÷ (8 × 2,039e9 × 0.7) = 54.11 ms, the longer
        // (compute 2 × 70e9 × 356 ÷ (8 × 312e12 × 0.41) = 48.7 ms), plus 22 ms.
        assert!((t.ms_per_token - 76.11).abs() < 0.01, "{}", t.ms_per_token);
        // 356 ÷ 0.07611 ÷ 8 = 584.7 tokens/s per accelerator.
        assert!((t.tokens_per_second_per_accelerator - 584.7).abs() < 0.05, "{}", t.tokens_per_second_per_accelerator);
        // Interactive: 50 − 22 ms leaves (0.028 × 11.418e12 − 140e9) ÷ 1.342e9 = 133 sequences
        // on 8 cards (2 cards cannot meet it even one at a time: 71.5 ms).
        let i = decode_throughput(&llama70(LatencyClass::Interactive), &a100).unwrap_or_else(|| panic!("fits"));
        assert_eq!((i.accelerators_per_replica, i.batch), (8, 133.0));
        assert!((i.tokens_per_second_per_accelerator - 333.2).abs() < 0.05, "{}", i.tokens_per_second_per_accelerator);
        assert!(!i.latency_missed);
    }

    #[test]
    fn a_replica_never_spans_more_than_the_demand_allows() {
        let a100 = Device { dense_tflops: 312.0, bandwidth_gbps: 2039.0, memory_gb: 80.0 };
        let two = Inference { cluster_accelerators: 2, ..llama70(LatencyClass::Batch) };
        let t = decode_throughput(&two, &a100).unwrap_or_else(|| panic!("fits"));
        // The fewest that hold it: 10 sequences, 75.7 ms a step, 66.0 tokens/s per card.
        assert_eq!((t.accelerators_per_replica, t.batch), (2, 10.0));
        assert!((t.tokens_per_second_per_accelerator - 66.01).abs() < 0.05, "{}", t.tokens_per_second_per_accelerator);
        // A bound below the fewest that hold the model does not shrink the replica;
        // a latency it cannot meet is said.
        let one = Inference { cluster_accelerators: 1, ..llama70(LatencyClass::Interactive) };
        let t = decode_throughput(&one, &a100).unwrap_or_else(|| panic!("fits"));
        assert_eq!((t.accelerators_per_replica, t.batch, t.latency_missed), (2, 1.0, true));
    }

    #[test]
    fn the_default_kv_rule_is_grouped_query_attention() {
        // Llama 2 70B caches 327,680 bytes a token in BF16; the rule's 71 layers give 290,000.
        let k = crate::fit::default_kv_bytes_per_token(70e9, Precision::Bf16);
        assert!((k - 290_400.0).abs() < 1_000.0, "{k}");
    }
}
