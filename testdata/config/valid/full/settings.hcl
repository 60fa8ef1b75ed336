neonform {
  api_url      = "embedded"
  account_tier = "scale"
  state        = "state/neonform.json"
}
