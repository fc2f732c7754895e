import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server for the tests (smtp-server), parsing what arrives with mailparser. `down`
// makes it turn every connection away (421) while keeping its port, so no other process can take
// the port in between (SMTP down, then back).

export interface CapturedMail {
  to: string[];
  parsed: ParsedMail;
}

export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;
  down = false;

  async start(port = this.port): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onConnect: (_session, callback) =>
        this.down ? callback(Object.assign(new Error("Service not available"), { responseCode: 421 })) : callback(),
      onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            this.mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed });
            callback();
          })
          .catch(callback);
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

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `smtp://user:pass@127.0.0.1:${this.port}`;
  }

  to(address: string): CapturedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address));
  }
}
