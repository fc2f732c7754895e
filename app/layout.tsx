import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: "Parley",
  description: "A self-hostable chat widget service.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      {/* No browser margin: the inbox and the demo paint the whole page (a white frame in dark mode otherwise). */}
      <body style={{ margin: 0 }}>{children}</body>
    </html>
  );
}
