import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server for the tests (smtp-server), parsing what arrives with mailparser. `down`
// makes it close the connections it has and turn every new one away (421) while keeping its
// port, so no other process can take the port in between (SMTP down, then back).

export interface CapturedMail {
  to: string[];
  /** The envelope sender (MAIL FROM); null for an empty one. */
  mailFrom: string | null;
  parsed: ParsedMail;
  /** The message as it arrived (headers and body, CRLF line ends). */
  raw: Buffer;
}

export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;
  /** SMTP connections accepted so far (refused ones included). */
  connections = 0;
  private isDown = false;

  get down(): boolean {
    return this.isDown;
  }

  set down(down: boolean) {
    this.isDown = down;
    if (down) this.closeConnections();
  }

  async start(port = this.port): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onConnect: (_session, callback) => {
        this.connections++;
        if (this.down) callback(Object.assign(new Error("Service not available"), { responseCode: 421 }));
        else callback();
      },
      onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", callback);
        stream.on("end", () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              const { mailFrom, rcptTo } = session.envelope;
              this.mails.push({ to: rcptTo.map((rcpt) => rcpt.address), mailFrom: mailFrom ? mailFrom.address : null, parsed, raw });
              callback();
            })
            .catch(callback);
        });
      },
    });
    server.on("error", () => {});
    await new Promise<void>((resolve, reject) => {
      server.listen(port, "127.0.0.1", () => resolve());
      server.server.once("error", reject);
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening and closes the open connections at once, as a server shutting down does. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    this.closeConnections();
    this.server = null;
    await closed;
  }

  /** What smtp-server itself does to connections still open when its close times out. */
  private closeConnections(): void {
    for (const connection of this.server?.connections ?? []) {
      connection.send(421, "Server shutting down");
      connection.close();
    }
  }

  get url(): string {
    return `smtp://user:pass@127.0.0.1:${this.port}`;
  }

  to(address: string): CapturedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address));
  }
}
