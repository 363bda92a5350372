import { afterEach, describe, expect, it } from "vitest";
import type { VueWrapper } from "@vue/test-utils";
import LibraryView from "./LibraryView.vue";
import { recordedAnswer, recordedError } from "../backend/replay";
import { setup, until } from "../test/helpers";

let w: VueWrapper | null = null;
afterEach(() => { w?.unmount(); w = null; document.body.innerHTML = ""; });
const all = (id: string) => [...document.querySelectorAll(`[data-testid="${id}"]`)] as HTMLElement[];

async function seeded() {
  const s = setup();
  await s.editor.init();
  expect(await s.editor.save()).toBe(true);
  s.editor.set("horizon_months", 24);
  s.editor.set("options[1].on_demand.price_per_accel_hour", 6);
  expect(await s.editor.save(true)).toBe(true);
  return s;
}

describe("library on recorded answers", () => {
  it("lists, duplicates, renames and deletes", async () => {
    const s = await seeded();
    w = s.mount(LibraryView);
    await until(() => all("library-row").length === 2);
    // the seed (saved first, listed last)
    const seedRow = all("library-row").findIndex((r) => r.dataset.id === "1");
    all("library-duplicate")[seedRow].click();
    await until(() => all("library-row").length === 3);
    // the copy's name is the backend's ("… (copy)")
    const copy = recordedAnswer("libraryDuplicate", "duplicate seed").name;
    expect(copy).toMatch(/\(copy\)$/);
    expect(all("library-row").some((r) => r.textContent === copy)).toBe(true);

    const id = Number(all("library-row")[0].dataset.id);
    all("library-rename")[0].click();
    await until(() => all("rename-input").length === 1);
    const input = document.querySelector('[data-testid="rename-input"] input, input[data-testid="rename-input"]') as HTMLInputElement;
    input.value = "Renamed plan";
    input.dispatchEvent(new Event("input"));
    input.dispatchEvent(new KeyboardEvent("keyup", { key: "Enter" }));
    await until(() => all("library-row").some((r) => r.textContent === "Renamed plan"));
    expect(s.backend.library.get(id)!.meta.name).toBe("Renamed plan");
    expect(s.backend.library.get(id)!.scenario.name).toBe("Renamed plan");

    all("library-delete")[0].click();
    await until(() => !!document.querySelector(".el-message-box"));
    const confirm = [...document.querySelectorAll(".el-message-box button")].find((b) => b.textContent!.includes("Delete")) as HTMLElement;
    confirm.click();
    await until(() => all("library-row").length === 2);
  });

  it("opens a saved scenario into the editor", async () => {
    const s = await seeded();
    w = s.mount(LibraryView);
    await until(() => all("library-row").length === 2);
    const row = all("library-row").find((r) => r.dataset.id === "1")!;
    const index = all("library-row").indexOf(row);
    all("library-open")[index].click();
    await until(() => s.editor.libraryId.value === 1 && s.editor.scenario.value?.horizon_months === 36);
    expect(s.editor.dirty.value).toBe(false);
    expect(w.emitted("opened")).toBeTruthy();
  });

  it("compares two scenarios: changed fields and effect on totals", async () => {
    const s = await seeded();
    const cmp = await s.backend.libraryCompare(1, 2);
    const recorded = recordedAnswer("libraryCompare", "compare seed with 24 months, on demand at 6");
    expect(cmp.changes).toEqual(recorded.changes);
    expect(cmp.totals).toEqual(recorded.totals);
    expect(cmp.changes).toEqual([
      { path: "horizon_months", before: "36", after: "24" },
      { path: "options[1].on_demand.price_per_accel_hour", before: "8.56", after: "6.0" },
    ]);
    const rent = cmp.totals.find((x) => x.option_id === "rent-8xa100-on-demand")!;
    expect(rent.after_nominal!).toBeLessThan(rent.before_nominal!);
    expect([cmp.a.id, cmp.b.id]).toEqual([1, 2]);

    w = s.mount(LibraryView);
    await until(() => all("library-row").length === 2);
    const boxes = [...document.querySelectorAll(".el-table__body .el-checkbox")] as HTMLElement[];
    boxes.forEach((b) => b.click());
    await until(() => !(document.querySelector('[data-testid="library-compare"]') as HTMLButtonElement).disabled);
    (document.querySelector('[data-testid="library-compare"]') as HTMLElement).click();
    await until(() => !!document.querySelector('[data-testid="library-comparison"]'));
    // each field by its name in the form, in the language of the screen; the path in its tooltip
    const paths = [...document.querySelectorAll<HTMLElement>('[data-testid="change-path"]')];
    expect(paths.map((p) => p.dataset.path)).toEqual(recorded.changes.map((c) => c.path));
    expect(paths.map((p) => p.textContent)).toEqual(["Horizon (months)", `${recorded.totals[1].label.split(" / ")[0]}: Price per accelerator-hour (On demand)`]);
    expect(paths.every((p) => p.title === p.dataset.path)).toBe(true);
  });

  it("refuses to save what the backend refuses and says why", async () => {
    const s = setup();
    await s.editor.init();
    s.editor.set("options", []);
    expect(await s.editor.save()).toBe(false);
    expect(s.editor.saveError.value).toEqual(recordedError("librarySave", "save seed, no options"));
    expect(s.editor.saveError.value?.code).toBe("invalid");
    expect(s.editor.saveError.value?.fields[0].path).toBe("options");
    expect(await s.backend.libraryList()).toEqual([]);
  });
});
