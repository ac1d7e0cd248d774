// The drafts API (recorder/API.md) as the page uses it. Every write sends the version
// the page last saw, so a write made against an old state is refused (409) instead of
// forking the game; the page then tells the recorder to reload. The same write sent
// again (a retry) is answered as the first time and applied once.

import { gettext, inPageLanguage, interpolate } from "../i18n.js";

/** The API refused a request; ``status`` and ``body`` are its answer. */
export class ApiError extends Error {
  constructor(status, body) {
    const rule = body && body.rule ? `${body.rule}: ` : "";
    super(body && body.message ? `${rule}${body.message}` : interpolate(gettext("The server answered %(status)s."), { status }));
    this.status = status;
    this.body = body || {};
  }

  /** The refusal's sentence without its rule id (the page shows the id as a link). */
  get sentence() {
    return this.body.message || this.message;
  }

  /** Another tab (or device) wrote to the draft since this page last read it. */
  get stale() {
    return this.status === 409 && this.body.error === "stale";
  }

  /** The draft was finished or abandoned elsewhere. */
  get closed() {
    return this.status === 409 && this.body.error === "closed";
  }
}

export class DraftApi {
  /** ``urls``: draft, legal, chance, apply, undo, finish, abandon; ``csrfToken`` for
   * writes. Every answer with a draft in it is drawn with the eyes the server gives this
   * person (its ``viewer``): the page never chooses a perspective. */
  constructor(urls, csrfToken) {
    this.urls = urls;
    this.csrfToken = csrfToken;
  }

  /** ``retries``: how many times a request that got no answer is sent again. Safe for
   * the writes too: the server answers a repeated write as it answered the first,
   * without applying it twice (recorder/API.md), so a write whose answer was lost on
   * the way back is not made twice. */
  async request(url, { method = "GET", body, retries = 1 } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["X-CSRFToken"] = this.csrfToken;
    }
    let response;
    for (let attempt = 0; ; attempt += 1) {
      try {
        response = await fetch(inPageLanguage(url), {
          method, headers, credentials: "same-origin",
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        break;
      } catch (error) {
        if (attempt < retries) {
          await new Promise((resolve) => setTimeout(resolve, 800));
          continue;
        }
        // Either nothing was saved, or it was and sending it again gets its answer.
        throw new ApiError(0, { message: gettext("The server could not be reached; nothing was lost. Try again.") });
      }
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  /** The draft, its move list and its current frame. */
  draft(withStatic) {
    const url = new URL(this.urls.draft, window.location.href);
    if (withStatic) url.searchParams.set("static", "1");
    return this.request(url);
  }

  /** The next field to choose among the legal actions of ``seat`` agreeing with ``prefix``,
   * or the actions themselves once few are left. */
  legal(seat, prefix) {
    const url = new URL(this.urls.legal, window.location.href);
    if (seat) url.searchParams.set("seat", seat);
    if (Object.keys(prefix).length) url.searchParams.set("prefix", JSON.stringify(prefix));
    return this.request(url);
  }

  /** The ways the chance in ``action`` could have come out, in the same shape as ``legal``. */
  chance(action, prefix) {
    return this.request(this.urls.chance, { method: "POST", body: { action, prefix } });
  }

  apply(version, action) {
    return this.request(this.urls.apply, { method: "POST", body: { version, action } });
  }

  undo(version) {
    return this.request(this.urls.undo, { method: "POST", body: { version } });
  }

  finish(version) {
    return this.request(this.urls.finish, { method: "POST", body: { version } });
  }

  abandon(version) {
    return this.request(this.urls.abandon, { method: "POST", body: { version } });
  }
}
