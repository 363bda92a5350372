//! Does the model fit? The fewest accelerators whose memory holds a
//! training run (weights, gradients, optimizer state by sharding) or a
//! served model (weights and KV cache).

use crate::scenario::{Precision, Sharding};

/// Bytes in one "GB" of accelerator memory as vendors label it (80 GB on
/// an A100 is 80 GiB).
pub const BYTES_PER_MEMORY_GB: f64 = 1_073_741_824.0;

/// Share of memory kept free for the runtime, activations and
/// fragmentation. An assumption (frameworks typically reserve 5–15 %).
pub const MEMORY_RESERVE_SHARE: f64 = 0.10;

/// Bytes of fp32 master weights and two Adam moments per parameter.
const OPTIMIZER_BYTES_PER_PARAMETER: f64 = 12.0;

/// Width ÷ depth of a dense transformer (GPT-3 175B: 12,288 / 96 = 128).
const ASPECT_RATIO: f64 = 128.0;

/// Width of the keys (or the values) one layer caches per token under
/// grouped-query attention with 8 KV heads of 128: Llama 2 70B, Llama 3
/// 8B/70B/405B, Qwen 2.5 72B and Mistral 7B all cache this.
const GQA_KV_WIDTH: f64 = 8.0 * 128.0;

/// KV cache bytes per token of a dense transformer of `parameters` with
/// grouped-query attention: parameters ≈ 12 · layers · width² and
/// width = 128 · layers give the layers; K and V of every layer are
/// stored at [`GQA_KV_WIDTH`] (or the whole width, if narrower):
/// 2 · layers · kv width · bytes. Llama 2 70B: the rule gives 71 layers and
/// 290,000 bytes against its 80 layers and 327,680. A model with full
/// multi-head attention keeps 8× more: give its own figure.
pub fn default_kv_bytes_per_token(parameters: f64, precision: Precision) -> f64 {
    let layers = (parameters / (12.0 * ASPECT_RATIO * ASPECT_RATIO)).cbrt();
    2.0 * layers * GQA_KV_WIDTH.min(ASPECT_RATIO * layers) * precision.bytes()
}

pub(crate) fn usable_bytes(memory_gb: f64) -> f64 {
    memory_gb * BYTES_PER_MEMORY_GB * (1.0 - MEMORY_RESERVE_SHARE)
}

/// Fewest accelerators that hold a mixed-precision Adam training run of
/// `parameters` (weights and gradients in `precision`, fp32 optimizer
/// state), activations not counted; `None` when no count fits (no
/// sharding and the whole state exceeds one accelerator).
pub fn training_min_accelerators(
    parameters: f64,
    precision: Precision,
    sharding: Sharding,
    memory_gb: f64,
) -> Option<u32> {
    let usable = usable_bytes(memory_gb);
    let w = parameters * precision.bytes();
    let g = parameters * precision.bytes();
    let o = parameters * OPTIMIZER_BYTES_PER_PARAMETER;
    // Per accelerator with n of them: replicated part + sharded part ÷ n.
    let (replicated, sharded) = match sharding {
        Sharding::None => (w + g + o, 0.0),
        Sharding::Zero1 => (w + g, o),
        Sharding::Zero2 => (w, g + o),
        Sharding::Zero3 => (0.0, w + g + o),
    };
    min_count(replicated, sharded, usable)
}

/// Fewest accelerators that hold a served model: its weights (sharded by
/// tensor parallelism) and `kv_bytes` of KV cache.
pub fn inference_min_accelerators(parameters: f64, precision: Precision, kv_bytes: f64, memory_gb: f64) -> Option<u32> {
    min_count(0.0, parameters * precision.bytes() + kv_bytes, usable_bytes(memory_gb))
}

/// Smallest n with replicated + sharded ÷ n ≤ usable.
fn min_count(replicated: f64, sharded: f64, usable: f64) -> Option<u32> {
    // NaN compares as neither, so it also gives None.
    if usable.partial_cmp(&replicated) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let n = (sharded / (usable - replicated)).ceil().max(1.0);
    (n.is_finite() && n <= f64::from(u32::MAX)).then_some(n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_70b_model_in_bf16_by_hand() {
        // Usable: 80 GiB × 0.9 = 77.31e9 B; 64 GiB × 0.9 = 61.85e9 B.
        // Serving: 70e9 × 2 B = 140e9 B of weights → 1.81 → 2 cards of 80 GB; 2.26 → 3 of 64 GB.
        assert_eq!(inference_min_accelerators(70e9, Precision::Bf16, 0.0, 80.0), Some(2));
        assert_eq!(inference_min_accelerators(70e9, Precision::Bf16, 0.0, 64.0), Some(3));
        // Training, fully sharded: (2 + 2 + 12) × 70e9 = 1,120e9 B → 14.49 → 15 of 80 GB; 18.11 → 19 of 64 GB.
        assert_eq!(training_min_accelerators(70e9, Precision::Bf16, Sharding::Zero3, 80.0), Some(15));
        assert_eq!(training_min_accelerators(70e9, Precision::Bf16, Sharding::Zero3, 64.0), Some(19));
        // Without sharding the 1,120e9 B never fit one card.
        assert_eq!(training_min_accelerators(70e9, Precision::Bf16, Sharding::None, 80.0), None);
        // ZeRO-1: 280e9 B of weights and gradients on every card exceed 77.3e9 B: never fits.
        assert_eq!(training_min_accelerators(70e9, Precision::Bf16, Sharding::Zero1, 80.0), None);
        // A 7 B model, ZeRO-2: 14e9 replicated, (14e9 + 84e9) ÷ n ≤ 63.31e9 → n = 2.
        assert_eq!(training_min_accelerators(7e9, Precision::Bf16, Sharding::Zero2, 80.0), Some(2));
    }
}
