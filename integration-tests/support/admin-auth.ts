/**
 * A member of staff for suites that call /admin routes: a Medusa user with an email-and-
 * password identity, logged in through Medusa's own login route, as the admin does. The
 * answer is the axios config carrying the JWT: `api.get(url, await adminHeaders(...))`.
 */
import { randomUUID } from "node:crypto"
import type { IAuthModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createUsersWorkflow } from "@medusajs/medusa/core-flows"

type Api = { post(url: string, body?: unknown, config?: unknown): Promise<{ data: any }> }

export async function adminHeaders(container: MedusaContainer, api: Api) {
  const email = `staff-${randomUUID()}@example.com`
  const password = randomUUID()
  const { result: users } = await createUsersWorkflow(container).run({ input: { users: [{ email }] } })
  const auth = container.resolve<IAuthModuleService>(Modules.AUTH)
  const { authIdentity, error } = await auth.register("emailpass", { body: { email, password } })
  if (!authIdentity || error) throw new Error(`could not register the staff identity: ${error}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0].id } })
  const { data } = await api.post("/auth/user/emailpass", { email, password })
  return { headers: { authorization: `Bearer ${data.token}` } }
}
