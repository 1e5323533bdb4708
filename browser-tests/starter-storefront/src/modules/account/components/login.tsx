"use client"
import { login } from "@lib/data/customer"
import { ErrorMessage } from "@modules/common/components"
import { useParams } from "next/navigation"
import { useActionState } from "react"

export function Login() {
  const { countryCode } = useParams<{ countryCode: string }>()
  const [error, action, pending] = useActionState(login, null)
  return (
    <form action={action} data-testid="login-form">
      <input type="hidden" name="countryCode" value={countryCode} />
      <label>
        E-mail <input id="login_email" name="email" type="email" required />
      </label>
      <label>
        Password <input id="login_password" name="password" type="password" required />
      </label>
      <button type="submit" data-testid="sign-in" disabled={pending}>
        Sign in
      </button>
      <ErrorMessage error={error} />
    </form>
  )
}
