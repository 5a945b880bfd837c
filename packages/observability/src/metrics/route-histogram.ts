/**
 * A Prometheus histogram whose label sets are looked up once and then kept: a request of a known
 * route observes into a cell it finds by two map reads, with no label object, no label hash and no
 * validation per request (prom-client's `observe(labels, value)` builds and hashes the labels on
 * every call, which was most of what metrics cost a request). The registry reads it as it reads
 * prom-client's own metrics (`get`, `getForPromString`, `reset`), so the text and the cluster's
 * JSON are the same as a prom-client histogram's.
 */
import type { Registry } from "prom-client";

/** One label set's counts. */
export interface HistogramCell {
  /** Adds one observation. */
  observe(value: number): void;
}

interface Cell extends HistogramCell {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** A value as the prom-client registry reads it. */
interface Value {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
}

/** A histogram labelled by a key and a sub-key (route and method), and a small index (status class). */
export class RouteHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly name: string;
  readonly help: string;
  private readonly bounds: readonly number[];
  private readonly labelNames: readonly [string, string, string?];
  private cells = new Map<string, Map<string, Cell[]>>();
  private readonly all: Cell[] = [];

  /** Registers the histogram on `registry`; `labelNames` are the key's, the sub-key's and (optionally) the index's. */
  constructor(options: {
    readonly name: string;
    readonly help: string;
    readonly labelNames: readonly [string, string, string?];
    readonly buckets: readonly number[];
    readonly registry: Registry;
  }) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.bounds = Object.freeze([...options.buckets].sort((a, b) => a - b));
    options.registry.registerMetric(this as never);
  }

  /** The cell of `key`, `sub` and index `index` (its label value `indexLabel`), made on first use. */
  cell(key: string, sub: string, index = 0, indexLabel?: string): HistogramCell {
    let byKey = this.cells.get(key);
    if (!byKey) this.cells.set(key, (byKey = new Map()));
    let row = byKey.get(sub);
    if (!row) byKey.set(sub, (row = []));
    return row[index] ?? (row[index] = this.make(key, sub, indexLabel));
  }

  private make(key: string, sub: string, indexLabel: string | undefined): Cell {
    const [a, b, c] = this.labelNames;
    const labels: Record<string, string> = { [a]: key, [b]: sub };
    if (c !== undefined && indexLabel !== undefined) labels[c] = indexLabel;
    const bounds = this.bounds;
    const all = this.all;
    // Listed for export at its first observation: as with prom-client, a label set shows once observed.
    const cell: Cell = {
      labels: Object.freeze(labels),
      counts: new Float64Array(bounds.length),
      sum: 0,
      count: 0,
      observe(value) {
        if (cell.count === 0) all.push(cell);
        cell.sum += value;
        cell.count++;
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]!) {
            cell.counts[i]!++;
            return;
          }
        }
      },
    };
    return cell;
  }

  /** What the registry renders as text: bucket labels apart from the cell's (prom-client's order). */
  getForPromString(): { name: string; help: string; type: string; values: Value[]; aggregator: string } {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const cell of this.all) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += cell.counts[i]!;
        values.push({ labels: { le: this.bounds[i]! }, sharedLabels: cell.labels, value: acc, metricName: bucket });
      }
      values.push(
        { labels: { le: "+Inf" }, sharedLabels: cell.labels, value: cell.count, metricName: bucket },
        { labels: {}, sharedLabels: cell.labels, value: cell.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: cell.labels, value: cell.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (the cluster primary sums it): every value with all its labels. */
  async get(): Promise<{ name: string; help: string; type: string; values: Value[]; aggregator: string }> {
    const data = this.getForPromString();
    data.values = data.values.map(({ labels, sharedLabels, value, metricName }) => ({
      labels: { ...labels, ...sharedLabels },
      value,
      metricName,
    }));
    return data;
  }

  /** Forgets every label set (`registry.resetMetrics()`). */
  reset(): void {
    this.cells = new Map();
    this.all.length = 0;
  }
}
