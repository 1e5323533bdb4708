import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** A saved card's contract type: CIT as before, or MIT_UNSCHEDULED when the customer consented to merchant charges. */
export class Migration20261127100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "nexi_saved_card" add column if not exists "contract_type" text check ("contract_type" in ('CIT', 'MIT_UNSCHEDULED')) not null default 'CIT';`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "nexi_saved_card" drop column if exists "contract_type";`)
  }
}
