neonform {
  api_url = "https://console.neon.tech/api/v2"
  api_key = "napi_0123456789abcdef" # ERROR: Unsupported argument # HINT: NEON_API_KEY
}
