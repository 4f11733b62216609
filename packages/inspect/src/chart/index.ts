// @troupe/inspect/chart: statecharts laid out from machine definitions (dagre, one graph per compound state).
export {
  CHART_TEXT,
  type Chart,
  type ChartDirection,
  type ChartEdge,
  type ChartEdgeLine,
  type ChartNode,
  type ChartRow,
  fitScale,
  type LayoutOptions,
  layoutChart,
  layoutChartToFit,
} from './layout-chart.js';
export type { ChartTransition } from './transitions.js';
