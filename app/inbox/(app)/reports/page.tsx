import { reportQuery } from "@/lib/contracts/reports";
import { SlaReport } from "../../_components/reports/sla-report";
import { formatDuration } from "@/lib/reports/metrics";
import { buildReports, type Report } from "@/lib/reports/report";
import { listSites } from "@/lib/sites/manage-sites";
import { listAssignable } from "@/lib/staff/team";
import styles from "../../inbox.module.css";
import { AnswersReport } from "../../_components/reports/answers-report";
import { BarChart } from "../../_components/reports/bar-chart";
import { DataTable, type Column } from "../../_components/ui/data-table";
import { OwnersOnly } from "../../_components/shared/owners-only";
import { SelectField, SiteSelect } from "../../_components/ui/select-field";
import { requireStaffPage } from "../../_components/shared/staff-session";

// The owners' Reports page (docs/reports.md): the figures of GET /api/v1/inbox/reports, measured
// once for the range and shown per day or week and per member.

type Params = Record<string, string | string[] | undefined>;

// Colours with at least 3:1 contrast on the panel in both themes.
const BLUE = "#2f6fcf";
const ORANGE = "#c2560c";

const seconds = (value: number) => formatDuration(value);
const text = (value: string | string[] | undefined) => (typeof value === "string" && value !== "" ? value : undefined);

function readQuery(params: Params) {
  const raw = { site: text(params.site), member: text(params.member), from: text(params.from), to: text(params.to), group: text(params.group) };
  const parsed = reportQuery.safeParse(Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)));
  return parsed.success ? { query: parsed.data, problem: null } : { query: reportQuery.parse({}), problem: parsed.error.issues[0]?.message ?? "invalid" };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export default async function ReportsPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="Reports" what="read reports" />;
  const { query, problem } = readQuery(await searchParams);
  const group = query.group === "week" ? "week" : "day";
  const [[overTime, perMember], sites, members] = await Promise.all([buildReports(query, [group, "member"]), listSites(), listAssignable()]);
  const lastDay = day(new Date(query.to.getTime() - 1));
  const csv = new URLSearchParams({ from: day(query.from), to: lastDay, ...(query.site ? { site: query.site } : {}), ...(query.member ? { member: query.member } : {}) });
  return (
    <main id="main" className={styles.page}>
      <h1>Reports</h1>
      <p className={styles.hint}>
        First response: from a visitor&apos;s first message to the first reply by a person (bots do not count); resolution: from the start to
        the close; both counted only inside the site&apos;s service hours. A reopen starts a new cycle. Days and weeks are UTC.
      </p>
      <form method="get" className={`${styles.row} ${styles.card}`} aria-label="Report range and filters">
        <div className={styles.field}>
          <label htmlFor="report-from">From</label>
          <input className={styles.input} type="date" id="report-from" name="from" defaultValue={day(query.from)} />
        </div>
        <div className={styles.field}>
          <label htmlFor="report-to">To</label>
          <input className={styles.input} type="date" id="report-to" name="to" defaultValue={lastDay} />
        </div>
        <SiteSelect id="report-site" name="site" defaultValue={query.site ?? ""} sites={sites} />
        <SelectField
          id="report-member"
          name="member"
          label="Member"
          defaultValue={query.member ?? ""}
          options={[{ value: "", label: "Everyone" }, ...members.map((teamMember) => ({ value: teamMember.id, label: teamMember.name }))]}
        />
        <SelectField
          id="report-group"
          name="group"
          label="Per"
          defaultValue={group}
          options={[
            { value: "day", label: "Day" },
            { value: "week", label: "Week" },
          ]}
        />
        <div className={styles.field}>
          <button className={styles.button} type="submit">
            Show
          </button>
        </div>
      </form>
      {problem ? (
        <p role="alert" className={styles.error}>
          That range could not be used ({problem}): showing the last 30 days.
        </p>
      ) : null}
      <p>
        <a href={`/api/v1/inbox/reports.csv?${csv}`} download>
          Download CSV (one row per conversation cycle)
        </a>
      </p>
      <Summary report={overTime!} />
      <OverTime report={overTime!} />
      <RatingsChart report={overTime!} />
      <MemberTable report={perMember!} />
      <SlaReport sla={overTime!.sla} />
      <AnswersReport range={{ site: query.site, from: query.from, to: query.to }} />
    </main>
  );
}

function Summary({ report }: { report: Report }) {
  const duration = (value: number | null) => (value === null ? "—" : seconds(value));
  return (
    <section className={styles.card} aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <dl className={styles.summary} data-testid="report-summary">
        <dt>Started</dt>
        <dd>{report.conversations.started}</dd>
        <dt>Closed</dt>
        <dd>{report.conversations.closed}</dd>
        <dt>First response, median / p90</dt>
        <dd>
          {duration(report.first_response.median_s)} / {duration(report.first_response.p90_s)} ({report.first_response.count})
        </dd>
        <dt>Resolution, median / p90</dt>
        <dd>
          {duration(report.resolution.median_s)} / {duration(report.resolution.p90_s)} ({report.resolution.count})
        </dd>
        <dt>Rating</dt>
        <dd>{report.rating.average === null ? "No ratings" : `${report.rating.average} out of 5 (${report.rating.count})`}</dd>
      </dl>
    </section>
  );
}

function OverTime({ report }: { report: Report }) {
  const keys = report.series.map((item) => item.key ?? "");
  const per = report.group === "week" ? "week (from Monday)" : "day";
  return (
    <section className={styles.card} aria-labelledby="over-time-title">
      <h2 id="over-time-title">Per {per}</h2>
      <BarChart
        id="conversations"
        title="Conversations started and closed"
        categories={keys}
        series={[
          { name: "Started", color: BLUE, values: report.series.map((item) => item.conversations.started) },
          { name: "Closed", color: ORANGE, values: report.series.map((item) => item.conversations.closed) },
        ]}
      />
      <BarChart
        id="first-response"
        title="First response, median and p90"
        categories={keys}
        format={seconds}
        series={[
          { name: "Median", color: BLUE, values: report.series.map((item) => item.first_response.median_s) },
          { name: "p90", color: ORANGE, values: report.series.map((item) => item.first_response.p90_s) },
        ]}
      />
      <BarChart
        id="resolution"
        title="Resolution, median and p90"
        categories={keys}
        format={seconds}
        series={[
          { name: "Median", color: BLUE, values: report.series.map((item) => item.resolution.median_s) },
          { name: "p90", color: ORANGE, values: report.series.map((item) => item.resolution.p90_s) },
        ]}
      />
    </section>
  );
}

function RatingsChart({ report }: { report: Report }) {
  const scores = ["1", "2", "3", "4", "5"] as const;
  return (
    <section className={styles.card} aria-labelledby="ratings-title">
      <h2 id="ratings-title">Ratings</h2>
      <BarChart
        id="ratings"
        title="Ratings by score (1 to 5)"
        categories={scores.map((score) => `${score} of 5`)}
        series={[{ name: "Ratings", color: BLUE, values: scores.map((score) => report.rating.by_score[score]) }]}
      />
    </section>
  );
}

const duration = (value: number | null) => (value === null ? "—" : seconds(value));

const MEMBER_COLUMNS: Column<Report["series"][number]>[] = [
  { header: "Member", cell: (item) => item.label, rowHeader: true },
  { header: "Started", cell: (item) => item.conversations.started },
  { header: "Closed", cell: (item) => item.conversations.closed },
  { header: "First response (median / p90)", cell: (item) => `${duration(item.first_response.median_s)} / ${duration(item.first_response.p90_s)}` },
  { header: "Resolution (median / p90)", cell: (item) => `${duration(item.resolution.median_s)} / ${duration(item.resolution.p90_s)}` },
  { header: "Rating", cell: (item) => (item.rating.average === null ? "—" : `${item.rating.average} (${item.rating.count})`) },
];

function MemberTable({ report }: { report: Report }) {
  return (
    <section className={styles.card} aria-labelledby="members-title">
      <h2 id="members-title">Per member (assigned)</h2>
      {report.series.length === 0 ? (
        <p className={styles.hint}>Nothing in this range.</p>
      ) : (
        <DataTable caption="Per member figures" narrow="scroll" testId="member-table" rows={report.series} rowKey={(item) => item.key ?? "unassigned"} columns={MEMBER_COLUMNS} />
      )}
    </section>
  );
}
