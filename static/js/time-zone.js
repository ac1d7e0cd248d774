// The browser's time zone, kept in a cookie the server reads (accounts.middleware): dates
// are shown in it from the next page on, for as long as the person chose no zone of
// their own on their settings page.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const kept = document.cookie.split("; ").find((c) => c.startsWith("lantern_tz="));
// IANA names (Asia/Tokyo, America/Argentina/Buenos_Aires) are letters, digits and / _ + -:
// a cookie holds them as they are.
if (zone && /^[A-Za-z0-9/_+-]+$/.test(zone) && (!kept || kept.slice("lantern_tz=".length) !== zone)) {
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `lantern_tz=${zone}; path=/; max-age=31536000; samesite=lax${secure}`;
}
