"""Local Kubernetes lab: etcd, kube-apiserver, controller-manager, scheduler and kwok."""
