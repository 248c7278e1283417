/*
 * Test-only TLS material: a self-signed P-256 certificate for localhost / 127.0.0.1, valid for
 * 100 years, used only by the gateway's https scraping test. Never use it for anything else.
 */

/** Certificate, PEM (its own CA). */
export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUaJVNqyhkEIoWlmON/zq0/4J/EtAwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwMTE1Mzc1NFoYDzIxMjYxMTA3
MTUzNzU0WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASLky3K3cm3hgKsGi+DSZLEwkFOe9x3s6/zxz7OEqH+6Z1I9k/yY591
Aa2NUFha7N3OkJMAn7upSnk3HUIG2K3So28wbTAdBgNVHQ4EFgQUtq1jT7TouO+m
jB0DWB0hm/bZdbkwHwYDVR0jBBgwFoAUtq1jT7TouO+mjB0DWB0hm/bZdbkwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIhAKuQM06o1BzzyFMRpYVHiRTjY4f3wHyCVHNv4rTulQ8RAiBP
KZytc55K6R6+vAEpryiIGL+Tn9l2ETIpNHZeBfCyBg==
-----END CERTIFICATE-----
`;

/** Private key, PEM. */
export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3Q0cvP16TgohxEQr
ZZuJGL7/EDrcYvDhWz4pSdzyO+mhRANCAASLky3K3cm3hgKsGi+DSZLEwkFOe9x3
s6/zxz7OEqH+6Z1I9k/yY591Aa2NUFha7N3OkJMAn7upSnk3HUIG2K3S
-----END PRIVATE KEY-----
`;
