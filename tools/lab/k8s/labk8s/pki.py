"""Lab PKI. Every certificate carries subjectKeyIdentifier and (leaves) authorityKeyIdentifier:
Python 3.13+ clients verify with VERIFY_X509_STRICT and reject certificates without them."""
import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SERVICE_CIDR = "10.96.0.0/16"
SERVICE_IP = "10.96.0.1"  # first address of SERVICE_CIDR: the kubernetes Service


def _name(cn: str, org: str | None = None) -> x509.Name:
    attrs = [x509.NameAttribute(NameOID.ORGANIZATION_NAME, org)] if org else []
    return x509.Name(attrs + [x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _write_key(path: Path, key) -> None:
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    path.chmod(0o600)


def _builder(subject, issuer, pub, days):
    now = datetime.datetime.now(datetime.timezone.utc)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(pub)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=days))
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(pub), critical=False))


def create(pki: Path, clients: dict[str, tuple[str, str | None]]) -> None:
    """Write ca, apiserver serving cert, one client cert per clients[name] = (CN, O), and sa key pair."""
    pki.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("nfv-lab-ca")
    ca = (_builder(ca_name, ca_name, ca_key.public_key(), 3650)
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    _write_key(pki / "ca.key", ca_key)
    (pki / "ca.crt").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    aki = x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key())

    def leaf(name, subject, usage, sans=None):
        key = ec.generate_private_key(ec.SECP256R1())
        b = (_builder(subject, ca_name, key.public_key(), 365)
             .add_extension(aki, critical=False)
             .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
             .add_extension(x509.KeyUsage(digital_signature=True, key_encipherment=True, content_commitment=False,
                                          data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                          crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
             .add_extension(x509.ExtendedKeyUsage([usage]), critical=False))
        if sans:
            b = b.add_extension(x509.SubjectAlternativeName(sans), critical=False)
        _write_key(pki / f"{name}.key", key)
        (pki / f"{name}.crt").write_bytes(b.sign(ca_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))

    dns = ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
           "kubernetes.default.svc.cluster.local"]
    leaf("apiserver", _name("kube-apiserver"), ExtendedKeyUsageOID.SERVER_AUTH,
         [x509.DNSName(d) for d in dns] + [x509.IPAddress(ipaddress.ip_address(i)) for i in ("127.0.0.1", SERVICE_IP)])
    for name, (cn, org) in clients.items():
        leaf(name, _name(cn, org), ExtendedKeyUsageOID.CLIENT_AUTH)

    sa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    _write_key(pki / "sa.key", sa)
    (pki / "sa.pub").write_bytes(sa.public_key().public_bytes(serialization.Encoding.PEM,
                                                              serialization.PublicFormat.SubjectPublicKeyInfo))
