// @troupe/inspect/chart: statecharts laid out from machine definitions (@xstate/graph + dagre).
export { type Chart, type ChartEdge, type ChartNode, layoutChart } from './layout-chart.js';
