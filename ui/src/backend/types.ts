// The backend's types under the names the UI uses. Every shape is generated
// from Rust (../bindings.ts, tauri-specta: `SUANLI_UPDATE_BINDINGS=1 cargo test
// -p suanli-app --test shell bindings`); only the names are chosen here. What a
// command answers is the `_Serialize` shape (every field present), what it
// reads the `_Deserialize` one (optional fields may be left out).
import type * as B from "../bindings";

/** The choices the UI offers, as the backend defines them. */
export { BILLING_MODES, CATEGORIES, MATURITIES, MAX_PICKS, OPTION_KINDS, RENT_BILLINGS, SECURITY_NEEDS } from "../bindings";

export type {
  Basis, Bilingual, Category, Maturity, BillingMode, LatencyClass, Precision, Confidence, NoRatio, QuoteKind, RatioUsed, Counts, Currency, WorkloadClass, Example, Exported, FieldError, JsonValue, Jurisdiction, Lang, OfferSort, PriceUnit,
  RangeJson, SavedScenario, ScenarioDoc,
  ScenarioMeta, Settings, SourceLine, FarPrice, NoteJson, SupplyJson,
} from "../bindings";

/** An error as the backend sends it: a closed `code`, a message in the user's language, the fields it is about. */
export type AppError = B.ErrorJson;
export type AppInfo = B.AppInfo_Serialize;
export type Accelerator = B.Accelerator_Serialize;
export type AcceleratorFilter = B.AcceleratorFilter_Deserialize;
export type Provider = B.Provider_Serialize;
export type Source = B.Source_Serialize;
export type OfferFilter = B.OfferFilter_Deserialize;
export type Offer = B.Offer_Serialize;
/** An offer as the offers list shows it, with how old its price is. */
export type OfferView = B.ListedOffer_Serialize;
/** A page of the offers list, with how many offers the filter selects. */
export type OfferPage = B.OfferPage_Serialize;
/** How old one price is against the stale threshold. */
export type Freshness = B.Freshness_Serialize;
/** One step in an offer's price history. */
export type PriceChange = B.PriceChange_Serialize;
/** A price of a scenario's option taken from a dated offer, aged. */
export type PriceAge = B.PriceAge_Serialize;
export type AcceleratorForWorkload = B.AcceleratorForWorkload_Serialize;
export type Recommendation = B.Recommendation_Serialize;
export type Candidate = B.CandidateJson_Serialize;
export type Constraints = B.Constraints_Deserialize;
export type RankBy = B.RankBy;
export type InferenceModel = B.InferenceModel_Deserialize;
export type Discount = B.Discount_Serialize;
export type PriceBook = B.PriceBook_Serialize;
export type Evaluated = B.Evaluated_Serialize;
export type EvaluationJson = B.EvaluationJson_Serialize;
export type OptionJson = B.OptionJson_Serialize;
export type SimulationJson = B.SimulationJson_Serialize;
export type SensitivityJson = B.SensitivityJson_Serialize;
export type Draft = B.Draft_Serialize;
export type Comparison = B.Comparison_Serialize;
export type UpdateSummary = B.UpdateSummary_Serialize;
/** The feeds a price refresh can download and their public addresses. */
export type FeedChoice = B.FeedChoice;
/** What one feed of a refresh did. */
export type FeedReport = B.FeedReport;
/** A price refresh's progress as the window receives it on its channel. */
export type RefreshProgress = B.RefreshProgress;
/** A catalogue update's progress as the window receives it on its channel. */
export type Progress = B.UpdateProgress_Deserialize;
/** Who a proposal is for and from (its cover). */
export type ProposalFields = B.ProposalFields_Deserialize;
