// New entries of the user's price book, as the forms start them. Whether an
// entry is valid is the backend's rule alone: its field errors are shown.
import type { Discount, Offer } from "../backend/types";

/** A new offer, dated `today` (the backend's date: the UI reads no clock). */
export function blankOffer(today: string): Offer {
  return {
    id: "", provider_id: "", accelerator_id: null, instance: null, region: null, billing_mode: "on_demand", accelerators_per_instance: 1,
    price: 0, price_high: null, price_unit: "accelerator_hour", currency: "CNY", upfront: null, interconnect: null,
    as_of: today, source: "user", confidence: "B", notes: null,
  };
}

/** A new discount, dated `today`. */
export function blankDiscount(today: string): Discount {
  return { id: "", offer_id: null, provider_id: null, discount_share: 0.1, note: null, as_of: today };
}
