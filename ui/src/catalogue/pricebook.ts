// Client-side checks of the user's own offers and discounts, before the backend
// sees them (the backend checks again and its field errors are shown too).
import type { Discount, Offer } from "../backend/types";

export type Problems = Record<string, string>;

/** Keys of messages (prices.*) per field. */
export function checkOffer(o: Offer): Problems {
  const p: Problems = {};
  if (!o.id.trim()) p.id = "prices.needValue";
  if (!o.provider_id) p.provider_id = "prices.needValue";
  if (!o.billing_mode) p.billing_mode = "prices.needValue";
  if (!o.currency) p.currency = "prices.needValue";
  if (!o.price_unit) p.price_unit = "prices.needValue";
  if (!(o.price !== null && Number.isFinite(o.price) && o.price > 0)) p.price = "prices.needPositive";
  if (o.accelerators_per_instance !== null && !(o.accelerators_per_instance >= 1)) p.accelerators_per_instance = "prices.needPositive";
  return p;
}

export function checkDiscount(d: Discount): Problems {
  const p: Problems = {};
  if (!d.id.trim()) p.id = "prices.needValue";
  const share = d.discount_share;
  if (!(share !== null && Number.isFinite(share) && share >= 0 && share < 1)) p.discount_share = "prices.needShare";
  if (!d.offer_id && !d.provider_id) p.offer_id = "prices.needTarget";
  return p;
}

export function blankOffer(): Offer {
  return {
    id: "", provider_id: "", accelerator_id: null, instance: null, region: null, billing_mode: "on_demand", accelerators_per_instance: 1,
    price: 0, price_unit: "accelerator_hour", currency: "CNY", upfront: null, interconnect: null,
    as_of: new Date().toISOString().slice(0, 10), source: "user", confidence: "B", notes: null,
  };
}

export function blankDiscount(): Discount {
  return { id: "", offer_id: null, provider_id: null, discount_share: 0.1, note: null, as_of: new Date().toISOString().slice(0, 10) };
}
