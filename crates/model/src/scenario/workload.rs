//! What kind of work the compute is for: the key of every efficiency ratio.

use serde::{Deserialize, Serialize};

use crate::Lang;

/// A workload class. The first nine (`PRICED`) are what enterprises run and what
/// offers are priced for; the last few are benchmark probes (peak GEMM,
/// memory bandwidth, links) that measure a part but price no work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum WorkloadClass {
    /// Pre-training a large language model.
    LlmPretraining,
    /// Fine-tuning a large language model.
    LlmFinetuning,
    /// Serving a large language model.
    LlmInference,
    /// Training vision models.
    VisionTraining,
    /// Serving vision models.
    VisionInference,
    /// Training BERT-class NLP models.
    NlpTraining,
    /// Serving BERT-class NLP models.
    NlpInference,
    /// Training recommendation models.
    RecommendationTraining,
    /// Serving recommendation models.
    RecommendationInference,
    /// Benchmark probe: peak BF16 matrix multiply.
    GemmBf16,
    /// Benchmark probe: peak FP16 matrix multiply.
    GemmFp16,
    /// Benchmark probe: peak FP8 matrix multiply.
    GemmFp8,
    /// Benchmark probe: memory bandwidth.
    MemoryBandwidth,
    /// Benchmark probe: interconnect bandwidth.
    Interconnect,
    /// A vendor claim that does not say which work.
    MixedUnspecified,
}

impl WorkloadClass {
    /// Every class, in declaration order (priced classes first).
    pub const ALL: [WorkloadClass; 15] = [
        WorkloadClass::LlmPretraining,
        WorkloadClass::LlmFinetuning,
        WorkloadClass::LlmInference,
        WorkloadClass::VisionTraining,
        WorkloadClass::VisionInference,
        WorkloadClass::NlpTraining,
        WorkloadClass::NlpInference,
        WorkloadClass::RecommendationTraining,
        WorkloadClass::RecommendationInference,
        WorkloadClass::GemmBf16,
        WorkloadClass::GemmFp16,
        WorkloadClass::GemmFp8,
        WorkloadClass::MemoryBandwidth,
        WorkloadClass::Interconnect,
        WorkloadClass::MixedUnspecified,
    ];

    /// The classes offers are priced for (the others are benchmark probes).
    pub const PRICED: [WorkloadClass; 9] = [
        WorkloadClass::LlmPretraining,
        WorkloadClass::LlmFinetuning,
        WorkloadClass::LlmInference,
        WorkloadClass::VisionTraining,
        WorkloadClass::VisionInference,
        WorkloadClass::NlpTraining,
        WorkloadClass::NlpInference,
        WorkloadClass::RecommendationTraining,
        WorkloadClass::RecommendationInference,
    ];

    /// The name in files and JSON (`llm_pretraining`).
    pub fn key(self) -> &'static str {
        match self {
            WorkloadClass::LlmPretraining => "llm_pretraining",
            WorkloadClass::LlmFinetuning => "llm_finetuning",
            WorkloadClass::LlmInference => "llm_inference",
            WorkloadClass::VisionTraining => "vision_training",
            WorkloadClass::VisionInference => "vision_inference",
            WorkloadClass::NlpTraining => "nlp_training",
            WorkloadClass::NlpInference => "nlp_inference",
            WorkloadClass::RecommendationTraining => "recommendation_training",
            WorkloadClass::RecommendationInference => "recommendation_inference",
            WorkloadClass::GemmBf16 => "gemm_bf16",
            WorkloadClass::GemmFp16 => "gemm_fp16",
            WorkloadClass::GemmFp8 => "gemm_fp8",
            WorkloadClass::MemoryBandwidth => "memory_bandwidth",
            WorkloadClass::Interconnect => "interconnect",
            WorkloadClass::MixedUnspecified => "mixed_unspecified",
        }
    }

    /// The class's name in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            WorkloadClass::LlmPretraining => lang.pick("LLM pre-training", "大模型预训练"),
            WorkloadClass::LlmFinetuning => lang.pick("LLM fine-tuning", "大模型微调"),
            WorkloadClass::LlmInference => lang.pick("LLM inference", "大模型推理"),
            WorkloadClass::VisionTraining => lang.pick("vision training", "视觉训练"),
            WorkloadClass::VisionInference => lang.pick("vision inference", "视觉推理"),
            WorkloadClass::NlpTraining => lang.pick("NLP training (BERT class)", "NLP 训练（BERT 类）"),
            WorkloadClass::NlpInference => lang.pick("NLP inference (BERT class)", "NLP 推理（BERT 类）"),
            WorkloadClass::RecommendationTraining => lang.pick("recommendation training", "推荐模型训练"),
            WorkloadClass::RecommendationInference => lang.pick("recommendation inference", "推荐模型推理"),
            WorkloadClass::GemmBf16 => lang.pick("BF16 matrix multiply (peak)", "BF16 矩阵乘（峰值）"),
            WorkloadClass::GemmFp16 => lang.pick("FP16 matrix multiply (peak)", "FP16 矩阵乘（峰值）"),
            WorkloadClass::GemmFp8 => lang.pick("FP8 matrix multiply (peak)", "FP8 矩阵乘（峰值）"),
            WorkloadClass::MemoryBandwidth => lang.pick("memory bandwidth", "显存带宽"),
            WorkloadClass::Interconnect => lang.pick("interconnect", "互联带宽"),
            WorkloadClass::MixedUnspecified => lang.pick("unspecified mix (vendor claim)", "未说明的负载（厂商宣称）"),
        }
    }

    /// The class whose key is `text` (surrounding spaces ignored).
    pub fn parse(text: &str) -> Option<WorkloadClass> {
        WorkloadClass::ALL.into_iter().find(|c| c.key() == text.trim())
    }

    /// Whether offers are priced for it.
    pub fn is_priced(self) -> bool {
        WorkloadClass::PRICED.contains(&self)
    }
}

impl std::fmt::Display for WorkloadClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for WorkloadClass {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        WorkloadClass::parse(s).ok_or_else(|| {
            let keys: Vec<&str> = WorkloadClass::ALL.iter().map(|c| c.key()).collect();
            format!("{s:?} is not a workload class: one of {}", keys.join(", "))
        })
    }
}
