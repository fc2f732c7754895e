import styles from "../../inbox.module.css";

// Server-rendered SVG bars with the same figures as a table (docs/reports.md, "Charts"): no chart
// script in the browser, a text alternative that screen readers and keyboard users can read.

export interface BarSeries {
  name: string;
  /** A CSS colour with at least 3:1 contrast on the panel, light and dark. */
  color: string;
  values: (number | null)[];
}

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 56;
const BOTTOM = 28;
const TOP = 10;

export function BarChart({
  id,
  title,
  categories,
  series,
  format = String,
}: {
  id: string;
  title: string;
  categories: string[];
  series: BarSeries[];
  format?: (value: number) => string;
}) {
  const max = Math.max(1, ...series.flatMap((item) => item.values.map((value) => value ?? 0)));
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, categories.length);
  const barWidth = Math.max(1, (slot * 0.8) / series.length);
  const labelEvery = Math.ceil(categories.length / 8);
  const y = (value: number) => TOP + plotHeight - (value / max) * plotHeight;
  return (
    <figure className={styles.chart} data-testid={`chart-${id}`}>
      <figcaption id={`${id}-title`} className={styles.label}>
        {title}
      </figcaption>
      <p className={styles.meta}>
        {series.map((item) => (
          <span key={item.name} className={styles.legend}>
            <span aria-hidden="true" className={styles.swatch} style={{ background: item.color }} /> {item.name}
          </span>
        ))}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-table`} className={styles.chartSvg}>
        <line x1={LEFT} x2={WIDTH - 8} y1={TOP + plotHeight} y2={TOP + plotHeight} stroke="currentColor" strokeOpacity={0.5} />
        <text x={LEFT - 6} y={TOP + 8} textAnchor="end" fontSize={11} fill="currentColor">
          {format(max)}
        </text>
        <text x={LEFT - 6} y={TOP + plotHeight} textAnchor="end" fontSize={11} fill="currentColor">
          0
        </text>
        {categories.map((category, index) => (
          <g key={category}>
            {series.map((item, seriesIndex) => {
              const value = item.values[index] ?? 0;
              return (
                <rect
                  key={item.name}
                  x={LEFT + index * slot + slot * 0.1 + seriesIndex * barWidth}
                  y={y(value)}
                  width={barWidth}
                  height={TOP + plotHeight - y(value)}
                  fill={item.color}
                />
              );
            })}
            {index % labelEvery === 0 ? (
              <text x={LEFT + index * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="currentColor">
                {category}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      {/* Opened before hydration (a quick click on a slow page) is the reader's doing, not a mismatch. */}
      <details suppressHydrationWarning>
        <summary>Table of “{title}”</summary>
        <table className={styles.table} id={`${id}-table`}>
          <thead>
            <tr>
              <th scope="col">Bucket</th>
              {series.map((item) => (
                <th scope="col" key={item.name}>
                  {item.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {categories.map((category, index) => (
              <tr key={category}>
                <th scope="row">{category}</th>
                {series.map((item) => (
                  <td key={item.name}>{item.values[index] === null || item.values[index] === undefined ? "—" : format(item.values[index]!)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
