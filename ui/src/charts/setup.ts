// ECharts: only the parts we use, the canvas renderer (redraws in a fraction of
// the SVG renderer's time as results change while typing; sharp at any device
// pixel ratio), and the
// shared palette registered as the "suanli" theme.
import { use, registerTheme } from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { BarChart, LineChart, ScatterChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, VisualMapComponent } from "echarts/components";
import palette from "./palette.json";

use([CanvasRenderer, BarChart, LineChart, ScatterChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, VisualMapComponent]);

export const THEME = "suanli";
export const COLORS: string[] = palette.colors;
/** The bundled face (styles.css), and no other named font: charts draw on a canvas, which uses only what is named here. */
export const FONT = "'Suanli Sans', sans-serif";

registerTheme(THEME, {
  color: palette.colors,
  backgroundColor: "transparent",
  textStyle: { fontFamily: FONT, color: palette.text },
  categoryAxis: { axisLine: { lineStyle: { color: palette.axis } }, axisLabel: { color: palette.text }, splitLine: { lineStyle: { color: palette.grid } } },
  valueAxis: { axisLine: { lineStyle: { color: palette.axis } }, axisLabel: { color: palette.text }, splitLine: { lineStyle: { color: palette.grid } } },
});
