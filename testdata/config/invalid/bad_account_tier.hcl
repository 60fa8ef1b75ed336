neonform {
  account_tier = "pro" # ERROR: Invalid account tier
  state        = "" # ERROR: Invalid state path
}
