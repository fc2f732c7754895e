export default function Home() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", lineHeight: 1.5 }}>
      <h1>Parley</h1>
      <p>A self-hostable chat widget service. The API lives under <code>/api/v1</code>.</p>
      <p>
        See the <a href="/demo">demo customer site</a> for the widget in action.
      </p>
    </main>
  );
}
