"""A throwaway certificate authority for the secured test broker's TLS listener.

One self-signed CA and one server certificate for 127.0.0.1/localhost, written as PEM: the
broker reads the key and chain as a PEM keystore (`ssl.keystore.type=PEM`), clients trust
`ca.pem` (REPOCONTEXT_KAFKA_SSL_CA_FILE), as pods trust Strimzi's cluster CA.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class BrokerCertificates:
    ca_file: Path  # the CA certificate clients trust
    keystore: Path  # the server's private key (PKCS#8, unencrypted) + certificate chain


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def write_certificates(where: Path) -> BrokerCertificates:
    """A CA and a server certificate valid for a day, under `where`."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(_name("repocontext test CA"))
        .issuer_name(_name("repocontext test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    where.mkdir(parents=True, exist_ok=True)
    pem = serialization.Encoding.PEM
    out = BrokerCertificates(where / "ca.pem", where / "server.pem")
    out.ca_file.write_bytes(ca_cert.public_bytes(pem))
    out.keystore.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        + cert.public_bytes(pem)
        + ca_cert.public_bytes(pem)
    )
    return out
