neonform {
  account_tier = "pro" # ERROR: Invalid account tier # HINT: not "pro"
  state        = "" # ERROR: Invalid state path
}
