// Stands in for `standardwebhooks` in the app's bundle (see vite.config.ts). The Anthropic SDK
// imports it only for `client.beta.webhooks.unwrap()`, which checks a webhook's signature on a
// server; a page never receives webhooks, so ~7 KB gzipped of hashing code is left out.

/** Throws: webhook signatures are checked on a server, never in the web app. */
export class Webhook {
  constructor() {
    throw new Error(
      'Webhook verification is not available in the troupe web app: verify webhooks on your server.',
    );
  }
}
