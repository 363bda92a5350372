//! What the scenario says about the model being trained or served: enough
//! to tell whether it fits an accelerator's memory and, for serving, how
//! fast tokens come out.

use serde::{Deserialize, Serialize};

/// Number format of the weights.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Precision {
    /// 32-bit float: 4 bytes per parameter.
    Fp32,
    /// bfloat16: 2 bytes per parameter (the default).
    #[default]
    Bf16,
    /// 16-bit float: 2 bytes per parameter.
    Fp16,
    /// 8-bit float: 1 byte per parameter.
    Fp8,
    /// 8-bit integer: 1 byte per parameter.
    Int8,
    /// 4-bit integer: half a byte per parameter.
    Int4,
}

impl Precision {
    /// Bytes per parameter.
    pub fn bytes(self) -> f64 {
        match self {
            Precision::Fp32 => 4.0,
            Precision::Bf16 | Precision::Fp16 => 2.0,
            Precision::Fp8 | Precision::Int8 => 1.0,
            Precision::Int4 => 0.5,
        }
    }

    /// The name in files and JSON (`bf16`).
    pub fn key(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Fp16 => "fp16",
            Precision::Fp8 => "fp8",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
        }
    }
}

/// How training spreads weights, gradients and optimizer state over the
/// accelerators (ZeRO stages; FSDP full sharding is stage 3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Sharding {
    /// Every accelerator holds everything (plain data parallel).
    None,
    /// Optimizer state sharded.
    Zero1,
    /// Optimizer state and gradients sharded.
    Zero2,
    /// Everything sharded (FSDP).
    #[default]
    Zero3,
}

/// How quickly each generated token must come.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum LatencyClass {
    /// A chat user waiting: at most 50 ms per output token.
    Interactive,
    /// An API with a service level: at most 100 ms per token.
    #[default]
    Standard,
    /// Offline jobs: no per-token bound, the largest batch memory allows.
    Batch,
}

impl LatencyClass {
    /// The longest time per output token, ms (an assumption of common
    /// serving targets; `None` for batch).
    pub fn max_ms_per_token(self) -> Option<f64> {
        match self {
            LatencyClass::Interactive => Some(50.0),
            LatencyClass::Standard => Some(100.0),
            LatencyClass::Batch => None,
        }
    }
}

/// Serving an LLM: the demand in tokens, the model, and how fast one
/// reference GPU produces tokens (stated, or estimated from the catalogue's
/// reference specs before evaluation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inference {
    /// Output tokens per second on average (or give `tokens_per_day`).
    #[serde(default)]
    pub tokens_per_second: Option<f64>,
    /// Output tokens per day on average (or give `tokens_per_second`).
    #[serde(default)]
    pub tokens_per_day: Option<f64>,
    /// Parameters of the served model (70e9 for a 70 B model).
    pub parameters: f64,
    /// Number format of the weights (and of the KV cache in the default rule).
    #[serde(default)]
    pub precision: Precision,
    /// Tokens of context per request (prompt and output).
    #[serde(default = "default_context")]
    pub context_tokens: f64,
    /// How fast each token must come; bounds the batch of the throughput estimate.
    #[serde(default)]
    pub latency: LatencyClass,
    /// KV cache per token of context, bytes (Llama-2-70B: 327,680). When
    /// absent, the rule of `crate::fit::default_kv_bytes_per_token` (grouped-query
    /// attention with 8 KV heads, as Llama 2 70B and Llama 3); give the model's own figure.
    #[serde(default)]
    pub kv_bytes_per_token: Option<f64>,
    /// Output tokens per second one reference GPU sustains for this model
    /// and latency class. When absent, estimated from the catalogue.
    #[serde(default)]
    pub tokens_per_second_per_ref_gpu: Option<f64>,
    /// Where that figure comes from (filled in when it is estimated).
    #[serde(default)]
    pub throughput_source: String,
    /// Accelerators a serving replica may span (a node: 8); the throughput
    /// estimate picks the replica size up to it that serves most per accelerator.
    #[serde(default = "default_replica")]
    pub cluster_accelerators: u32,
}

fn default_context() -> f64 {
    4096.0
}

fn default_replica() -> u32 {
    8
}

impl Inference {
    /// Output tokens per second, from either field.
    pub fn tokens_per_second(&self) -> f64 {
        self.tokens_per_second.unwrap_or_else(|| self.tokens_per_day.unwrap_or(0.0) / 86_400.0)
    }
}
