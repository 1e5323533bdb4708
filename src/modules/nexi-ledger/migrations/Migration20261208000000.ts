import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * A paid attempt is looked at again for about a month (src/core/attempt-watch.ts). Those paid in
 * the 30 days before this version had their watch ended: their looks start an hour after the
 * upgrade, so what the back office did on them whose notification was lost reaches Medusa too.
 */
export class Migration20261208000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `update "nexi_payment_attempt" set "checks" = 0, "next_check_at" = now() + interval '1 hour' where "state" = 'paid' and "next_check_at" is null and "deleted_at" is null and "updated_at" > now() - interval '30 days';`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`update "nexi_payment_attempt" set "next_check_at" = null where "state" = 'paid';`)
  }
}
