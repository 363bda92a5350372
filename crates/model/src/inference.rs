//! How fast an accelerator serves an LLM: a roofline of the decode step.
//!
//! Each step reads the weights once for the whole batch and every
//! sequence's KV cache, and does 2 · parameters FLOPs per sequence; it
//! takes the longer of the two at the utilisations below. The batch is the
//! largest the memory holds and the latency class allows. An ESTIMATE: a
//! stated figure (`tokens_per_second_per_ref_gpu`) always replaces it.

use crate::fit::{default_kv_bytes_per_token, inference_min_accelerators, usable_bytes};
use crate::scenario::Inference;

/// Share of peak memory bandwidth a decode step reaches. An assumption
/// (serving engines report 60–80 %); compared with MLPerf in `docs/efficiency.md`.
pub const BANDWIDTH_UTILISATION: f64 = 0.7;
/// Share of dense peak compute a large decode batch reaches. An assumption.
pub const COMPUTE_UTILISATION: f64 = 0.5;

/// The figures of one accelerator the roofline needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    /// Dense peak compute, TFLOPS.
    pub dense_tflops: f64,
    /// Memory bandwidth, GB/s (1e9 bytes a second).
    pub bandwidth_gbps: f64,
    /// Memory of one accelerator, GB as vendors label it ([`crate::fit::BYTES_PER_MEMORY_GB`]).
    pub memory_gb: f64,
}

/// Serving throughput of one replica.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput {
    /// Output tokens per second the replica serves, per accelerator in it.
    pub tokens_per_second_per_accelerator: f64,
    /// Accelerators one replica needs to hold the model and its KV cache.
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

/// Decode throughput of the demand's model on a device; `None` when the
/// model does not fit any number of them or a figure is not positive.
pub fn decode_throughput(d: &Inference, dev: &Device) -> Option<Throughput> {
    if !(dev.dense_tflops > 0.0 && dev.bandwidth_gbps > 0.0 && dev.memory_gb > 0.0 && d.parameters > 0.0) {
        return None;
    }
    let weights = d.parameters * d.precision.bytes();
    let kv_sequence = kv_bytes_per_token(d) * d.context_tokens;
    let n = inference_min_accelerators(d.parameters, d.precision, kv_sequence, dev.memory_gb)?;
    let nf = f64::from(n);
    let bandwidth = nf * dev.bandwidth_gbps * 1e9 * BANDWIDTH_UTILISATION;
    let compute = nf * dev.dense_tflops * 1e12 * COMPUTE_UTILISATION;
    let step = |b: f64| ((weights + b * kv_sequence) / bandwidth).max(2.0 * d.parameters * b / compute);
    let by_memory = ((nf * usable_bytes(dev.memory_gb) - weights) / kv_sequence).floor().max(1.0);
    let by_latency = d.latency.max_ms_per_token().map(|ms| {
        let t = ms / 1e3;
        ((t * bandwidth - weights) / kv_sequence).min(t * compute / (2.0 * d.parameters)).floor()
    });
    let batch = by_latency.map_or(by_memory, |b| b.min(by_memory)).max(1.0);
    let t = step(batch);
    let latency_missed = d.latency.max_ms_per_token().is_some_and(|ms| t * 1e3 > ms + 1e-9);
    Some(Throughput {
        tokens_per_second_per_accelerator: batch / t / nf,
        accelerators_per_replica: n,
        batch,
        ms_per_token: t * 1e3,
        latency_missed,
    })
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
        // KV per sequence 327,680 × 4,096 = 1.342e9 B; 140e9 + 1.342e9 over 77.31e9 usable → 2 cards.
        assert_eq!(t.accelerators_per_replica, 2);
        // Memory for KV: 2 × 77.31e9 − 140e9 = 14.62e9 → 10 sequences.
        assert_eq!(t.batch, 10.0);
        // Step: (140e9 + 10 × 1.342e9) ÷ (2 × 2,039e9 × 0.7) = 53.74 ms (compute 2.24 ms).
        assert!((t.ms_per_token - 53.74).abs() < 0.05, "{}", t.ms_per_token);
        // 10 ÷ 0.05374 ÷ 2 = 93.0 tokens/s per accelerator.
        assert!((t.tokens_per_second_per_accelerator - 93.0).abs() < 0.2, "{}", t.tokens_per_second_per_accelerator);
        // Interactive: 50 ms per token allows (0.05 × 2,854.6e9 − 140e9) ÷ 1.342e9 = 2 sequences.
        let i = decode_throughput(&llama70(LatencyClass::Interactive), &a100).unwrap_or_else(|| panic!("fits"));
        assert_eq!(i.batch, 2.0);
        assert!(!i.latency_missed);
    }
}
