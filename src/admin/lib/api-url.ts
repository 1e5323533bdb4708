/**
 * Where the admin's API lives. The admin build defines __BACKEND_URL__ from the store's
 * `admin.backendUrl` ("/" by default, an absolute URL when the dashboard is hosted apart);
 * Medusa's documentation tells plugins to use it. Outside an admin build (unit tests) it is
 * undefined and paths stay relative.
 */
declare const __BACKEND_URL__: string | undefined

export function backendUrl(): string {
  return typeof __BACKEND_URL__ === "string" ? __BACKEND_URL__ : ""
}

/** "/" + "/admin/nexi" must not become "//admin/nexi", which a browser reads as a host name. */
export function adminApiUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`
}
