import { routes } from "../../operation";

export const inboxSso = routes({
  "v1/inbox/sso": {
    GET: {
      summary: "Single sign-on: on to the identity provider (OpenID Connect, code flow with PKCE)",
      description:
        "A browser navigation from the sign-in page. 302 to the provider's authorization endpoint, with a sealed, HttpOnly cookie " +
        "holding the attempt's state, nonce and PKCE verifier for 10 minutes. 404 while OIDC_* is not configured.",
      extension: true,
      answers: {},
      redirect: "To the identity provider",
      errors: ["not_found"],
    },
  },
  "v1/inbox/sso/callback": {
    GET: {
      summary: "Single sign-on: the provider's answer",
      description:
        "Where the provider sends the browser back. Signed in: 302 to /inbox with the session cookie. Refused: 302 to " +
        "/inbox/sign-in?sso=<reason> (attempt_invalid, provider_failed, email_unverified, no_member, account_mismatch). " +
        "Existing members only, matched by the provider account linked at their first sign-in or else by an email the provider " +
        "says is verified; a pending invite is never claimed; OIDC_AUTO_PROVISION=agent creates an agent for an email nobody holds.",
      extension: true,
      answers: {},
      redirect: "To the inbox (signed in) or to the sign-in page saying why not",
      errors: ["not_found"],
    },
  },
});
