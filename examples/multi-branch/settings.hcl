# A realistic setup: two projects, production and staging branches, read
# replicas, sizes from variables, and shared Postgres settings.
#
# Every *.hcl file in this directory is read; the split into files is only for
# people. Values for production come from prod.vars:
#
#   neonform validate -var-file prod.vars
#   neonform plan -var-file prod.vars -out plan.json
#   neonform apply plan.json
#
# To try it offline against the built-in emulator, run the same with
# NEON_API_URL=embedded (the first plan creates the projects and branches in
# the sandbox).

neonform {
  account_tier = "paid"
  state        = "neonform.state.json"
}

variable "environment" {
  type        = string
  default     = "dev"
  description = "Which environment the sizes are for: dev or prod"
}

variable "primary_max_cu" {
  type        = number
  default     = 2
  description = "How far the shop's primary may autoscale, in CU (at most 16)"
}

variable "replica_cu" {
  type        = number
  default     = 0.5
  description = "Fixed size of each read replica"
}

variable "work_mem" {
  type        = string
  default     = "16MB"
  description = "Postgres work_mem for every compute"
}

locals {
  production = var.environment == "prod"

  # Settings every compute gets; a compute can add its own with merge().
  pg_common = {
    work_mem                            = var.work_mem
    statement_timeout                   = "60s"
    idle_in_transaction_session_timeout = "5min"
  }

  # Replicas never go below 0.5 CU, even when replica_cu says less.
  replica_cu = max(var.replica_cu, 0.5)

  # Production computes stay up longer before they scale to zero.
  suspend = local.production ? "30m" : "5m"
}
