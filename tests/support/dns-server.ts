import dns2 from "dns2";

// A real DNS server on loopback (dns2, UDP) answering from a zone the test writes: TXT records by
// name; a name it knows without that type answers no data, any other name NXDOMAIN. The app asks
// it through DNS_SERVERS, as it would ask an operator's resolver.

const { Packet } = dns2;

export class LoopbackDns {
  private readonly txt = new Map<string, string[]>();
  private readonly server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? "").toLowerCase().replace(/\.$/, "");
      const records = this.txt.get(name);
      if (!records) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question?.type === Packet.TYPE.TXT) {
        for (const data of records) response.answers.push(new Packet.Resource({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }));
      }
      send(response);
    },
  });

  /** Publishes a TXT record (added to any already there). */
  publishTxt(name: string, text: string): this {
    this.txt.set(name.toLowerCase(), [...(this.txt.get(name.toLowerCase()) ?? []), text]);
    return this;
  }

  /** Starts listening on 127.0.0.1; answers the `host:port` for DNS_SERVERS. */
  async start(): Promise<string> {
    const addresses = await this.server.listen({ udp: { port: 0, address: "127.0.0.1" } });
    return `127.0.0.1:${addresses.udp!.port}`;
  }

  stop(): Promise<void> {
    return this.server.close();
  }
}
