neonform {
  api_url      = "embedded"
  account_tier = "free"
  state        = "state/neonform.json"
}
