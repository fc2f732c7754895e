import type { ReactNode } from "react";
import styles from "../../inbox.module.css";

// The inbox's lists as tables (tickets, the audit log, inbound email, reports per member): a caption for screen
// readers, column headers, and one of two ways to fit a 375 px phone.

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
  /** The cell names its row (`<th scope="row">`), as a member's name does their figures. */
  rowHeader?: boolean;
}

interface Props<Row> {
  /** Read out before the table (and the scrolling region's name); not shown. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** Attributes of each row, for the tests and scripts that find one (`data-action`). */
  rowAttributes?: (row: Row) => Record<`data-${string}`, string>;
  /**
   * At phone width, `cards` stacks each row as a card whose cells are headed by their column's
   * name; `scroll` keeps the table and scrolls it sideways in its own region, not the page.
   */
  narrow: "cards" | "scroll";
  testId: string;
}

export function DataTable<Row>({ caption, columns, rows, rowKey, rowAttributes, narrow, testId }: Props<Row>) {
  const cards = narrow === "cards";
  const table = (
    <table className={cards ? `${styles.table} ${styles.cardTable}` : styles.table} data-testid={testId}>
      <caption className={styles.srOnly}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowAttributes?.(row)}>
            {columns.map((column) => {
              const Cell = column.rowHeader ? "th" : "td";
              return (
                <Cell key={column.header} scope={column.rowHeader ? "row" : undefined} className={column.className} data-label={cards ? column.header : undefined}>
                  {column.cell(row)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (cards) return table;
  return (
    <div className={styles.tableScroll} role="region" aria-label={caption} tabIndex={0}>
      {table}
    </div>
  );
}
