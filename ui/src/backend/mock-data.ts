// Fixed data for the mock backend: a handful of accelerators (incl. domestic
// ones), providers, offers and sources. Figures are illustrative.
import type { Accelerator, Offer, Provider, Source } from "./types";

const acc = (a: Partial<Accelerator> & Pick<Accelerator, "id" | "vendor" | "name">): Accelerator => ({
  vendor_zh: null, name_zh: null, domestic: false, memory_gb: null, memory_type: null, memory_bandwidth_gbps: null,
  bf16_tflops: null, fp16_tflops: null, fp32_tflops: null, int8_tops: null, tdp_w: null, interconnect: null,
  interconnect_gbps: null, form_factor: null, software_stack: null, framework_adapter: null, release: null,
  export_status_cn: "unknown", export_status_since: null, export_status_notes: null, list_price: null,
  list_price_currency: null, list_price_as_of: null, source: "S1", as_of: "2025", confidence: "C", notes: null, ...a,
});

export const ACCELERATORS: Accelerator[] = [
  acc({ id: "nvidia-a100-sxm-80gb", vendor: "NVIDIA", vendor_zh: "英伟达", name: "A100 SXM 80GB", memory_gb: 80, memory_type: "HBM2e",
    memory_bandwidth_gbps: 2039, bf16_tflops: 312, fp16_tflops: 312, fp32_tflops: 19.5, int8_tops: 624, tdp_w: 400,
    interconnect: "NVLink 3", software_stack: "CUDA", release: "2020", export_status_cn: "licence_required",
    export_status_since: "2022-10-07", source: "S1;S2", as_of: "2025", confidence: "V" }),
  acc({ id: "nvidia-h100-sxm-80gb", vendor: "NVIDIA", vendor_zh: "英伟达", name: "H100 SXM 80GB", memory_gb: 80, memory_type: "HBM3",
    memory_bandwidth_gbps: 3350, bf16_tflops: 989, fp16_tflops: 989, fp32_tflops: 67, tdp_w: 700, software_stack: "CUDA",
    release: "2022", export_status_cn: "licence_required", source: "S1", confidence: "V" }),
  acc({ id: "nvidia-h20-96gb", vendor: "NVIDIA", vendor_zh: "英伟达", name: "H20 96GB (HGX)", memory_gb: 96, memory_type: "HBM3",
    memory_bandwidth_gbps: 4000, bf16_tflops: 148, fp16_tflops: 148, fp32_tflops: 44, tdp_w: 400, software_stack: "CUDA",
    release: "2024", export_status_cn: "china_only_variant", source: "S2", confidence: "C" }),
  acc({ id: "nvidia-rtx-4090", vendor: "NVIDIA", vendor_zh: "英伟达", name: "GeForce RTX 4090", memory_gb: 24, memory_type: "GDDR6X",
    bf16_tflops: 165, tdp_w: 450, software_stack: "CUDA", export_status_cn: "banned", source: "S1", confidence: "C" }),
  acc({ id: "huawei-ascend-910b", vendor: "Huawei", vendor_zh: "华为", name: "Ascend 910B", name_zh: "昇腾910B", domestic: true,
    memory_gb: 64, memory_type: "HBM2e", memory_bandwidth_gbps: 1600, bf16_tflops: 313, fp16_tflops: 313, tdp_w: 400,
    software_stack: "CANN", framework_adapter: "torch_npu", release: "2023", export_status_cn: "domestic", source: "S3", confidence: "P" }),
  acc({ id: "cambricon-mlu370-x8", vendor: "Cambricon", vendor_zh: "寒武纪", name: "MLU370-X8", name_zh: "思元370-X8", domestic: true,
    memory_gb: 48, memory_type: "LPDDR5", memory_bandwidth_gbps: 614.4, bf16_tflops: 96, fp16_tflops: 96, fp32_tflops: 32, tdp_w: 250,
    software_stack: "Neuware", framework_adapter: "torch_mlu", export_status_cn: "domestic", source: "S4", confidence: "P" }),
  acc({ id: "hygon-dcu-k100", vendor: "Hygon", vendor_zh: "海光", name: "DCU K100", name_zh: "深算二号 K100", domestic: true,
    memory_gb: 64, memory_type: "HBM2e", bf16_tflops: 196, tdp_w: 350, software_stack: "DTK (ROCm-like)",
    export_status_cn: "domestic", source: "S4", confidence: "U" }),
];

export const PROVIDERS: Provider[] = [
  { id: "aws", name: "Amazon Web Services", name_zh: "亚马逊云科技", country: "US", kind: "hyperscaler", source: "S5", as_of: "2025", confidence: "A" },
  { id: "aliyun", name: "Alibaba Cloud", name_zh: "阿里云", country: "CN", kind: "hyperscaler", source: "S6", as_of: "2025", confidence: "A" },
  { id: "autodl", name: "AutoDL", name_zh: "AutoDL", country: "CN", kind: "gpu_cloud", source: "S6", as_of: "2025", confidence: "C" },
  { id: "huawei-cloud", name: "Huawei Cloud", name_zh: "华为云", country: "CN", kind: "hyperscaler", source: "S3", as_of: "2025", confidence: "C" },
];

const offer = (o: Partial<Offer> & Pick<Offer, "id" | "provider_id" | "accelerator_id" | "billing_mode" | "price" | "price_unit" | "currency">): Offer => ({
  instance: null, region: null, accelerators_per_instance: 1, upfront: null, interconnect: null,
  as_of: "2025-09", source: "S5", confidence: "A", notes: null, ...o,
});

export const OFFERS: Offer[] = [
  offer({ id: "aws-p4de-24xlarge-us-east-1-on-demand", provider_id: "aws", accelerator_id: "nvidia-a100-sxm-80gb", instance: "p4de.24xlarge",
    region: "us-east-1", billing_mode: "on_demand", accelerators_per_instance: 8, price: 40.96, price_unit: "instance_hour", currency: "USD" }),
  offer({ id: "aws-p5-48xlarge-us-east-1-on-demand", provider_id: "aws", accelerator_id: "nvidia-h100-sxm-80gb", instance: "p5.48xlarge",
    region: "us-east-1", billing_mode: "on_demand", accelerators_per_instance: 8, price: 55.04, price_unit: "instance_hour", currency: "USD" }),
  offer({ id: "aws-p5-48xlarge-us-east-1-spot", provider_id: "aws", accelerator_id: "nvidia-h100-sxm-80gb", instance: "p5.48xlarge",
    region: "us-east-1", billing_mode: "spot", accelerators_per_instance: 8, price: 17.63, price_unit: "instance_hour", currency: "USD" }),
  offer({ id: "aliyun-a100-cn-beijing-monthly", provider_id: "aliyun", accelerator_id: "nvidia-a100-sxm-80gb", instance: "gn7e",
    region: "cn-beijing", billing_mode: "monthly", accelerators_per_instance: 8, price: 98000, price_unit: "instance_month", currency: "CNY",
    source: "S6", confidence: "C" }),
  offer({ id: "autodl-a100-on-demand", provider_id: "autodl", accelerator_id: "nvidia-a100-sxm-80gb", region: "cn-east",
    billing_mode: "on_demand", price: 5.98, price_unit: "accelerator_hour", currency: "CNY", source: "S6", confidence: "C" }),
  offer({ id: "autodl-h20-on-demand", provider_id: "autodl", accelerator_id: "nvidia-h20-96gb", region: "cn-east",
    billing_mode: "on_demand", price: 7.5, price_unit: "accelerator_hour", currency: "CNY", source: "S6", confidence: "C" }),
  offer({ id: "huawei-cloud-910b-on-demand", provider_id: "huawei-cloud", accelerator_id: "huawei-ascend-910b", region: "cn-southwest-2",
    billing_mode: "on_demand", accelerators_per_instance: 8, price: 36, price_unit: "instance_hour", currency: "CNY", source: "S3", confidence: "B" }),
  offer({ id: "huawei-cloud-910b-reserved-1y", provider_id: "huawei-cloud", accelerator_id: "huawei-ascend-910b", region: "cn-southwest-2",
    billing_mode: "reserved_1y", accelerators_per_instance: 8, price: 21.6, price_unit: "instance_hour", currency: "CNY", source: "S3", confidence: "B" }),
];

export const SOURCES: Source[] = [
  { id: "S1", title: "Epoch AI: ML hardware dataset", url: "https://epoch.ai/data/machine-learning-hardware", publisher: "Epoch AI", as_of: "2025" },
  { id: "S2", title: "NVIDIA data sheets", url: "https://www.nvidia.com/en-us/data-center/", publisher: "NVIDIA", as_of: "2025" },
  { id: "S3", title: "Huawei Ascend product pages", url: null, publisher: "Huawei", as_of: "2024" },
  { id: "S4", title: "Vendor press material (domestic accelerators)", url: null, publisher: null, as_of: "2024" },
  { id: "S5", title: "AWS EC2 on-demand pricing", url: "https://aws.amazon.com/ec2/pricing/", publisher: "AWS", as_of: "2025-09" },
  { id: "S6", title: "Chinese GPU cloud price lists", url: null, publisher: null, as_of: "2025-09" },
  { id: "S7", title: "FlagPerf benchmark results", url: null, publisher: "BAAI", as_of: "2025" },
];

/** Throughput relative to the A100 SXM 80GB, by workload class. */
export const EFFICIENCY: Record<string, Record<string, { ratio: number; source: string; confidence: string }>> = {
  llm_pretraining: {
    "nvidia-a100-sxm-80gb": { ratio: 1, source: "S7", confidence: "M" },
    "nvidia-h100-sxm-80gb": { ratio: 2.19, source: "S7", confidence: "M" },
    "nvidia-h20-96gb": { ratio: 0.55, source: "S7", confidence: "M" },
    "huawei-ascend-910b": { ratio: 0.8, source: "S3", confidence: "P" },
  },
  llm_inference: {
    "nvidia-a100-sxm-80gb": { ratio: 1, source: "S7", confidence: "M" },
    "nvidia-h100-sxm-80gb": { ratio: 1.8, source: "S7", confidence: "M" },
    "nvidia-h20-96gb": { ratio: 1.1, source: "S7", confidence: "C" },
    "huawei-ascend-910b": { ratio: 0.7, source: "S3", confidence: "P" },
    "cambricon-mlu370-x8": { ratio: 0.35, source: "S4", confidence: "P" },
  },
  vision_training: {
    "nvidia-a100-sxm-80gb": { ratio: 1, source: "S7", confidence: "M" },
    "huawei-ascend-910b": { ratio: 0.75, source: "S3", confidence: "P" },
  },
};
