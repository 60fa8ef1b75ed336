package pgcompute

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"time"
)

// The proxy answers a client's TLS request, so that sslmode=require works and a
// client that connects to the endpoint's host name (ep-....localhost, reached with
// hostaddr=127.0.0.1) is routed by the name it sends (SNI), as the service's proxy
// routes. The certificate is made afresh by every proxy and signed by itself: a
// client that verifies certificates (sslmode=verify-full) refuses it, as it should
// for a server it cannot know.

// selfSigned is a certificate for localhost, *.localhost and the loopback addresses.
func selfSigned() (*tls.Config, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "neonform emulator"},
		DNSNames:     []string{"localhost", "*.localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, nil
}

// endpointOfHost is the endpoint a host name names: its first label, as the
// service's hosts are ep-cool-darkness-a5b6c7d8.REGION... (and -pooler for the
// pooler's); "" when the first label is not an endpoint id.
func endpointOfHost(host string) string {
	first, _, _ := strings.Cut(host, ".")
	first = strings.TrimSuffix(first, "-pooler")
	if !strings.HasPrefix(first, "ep-") {
		return ""
	}
	return first
}
