//! Where a setting lives in its distribution: which file, key or flag a user edits to change it,
//! and which file the distribution rewrites behind their back.
//!
//! Sources: kubeadm's "Configuring each kubelet in your cluster using kubeadm" and "Reconfiguring a
//! kubeadm cluster" pages (kubeadm-flags.env, the kubelet-config and kubeadm-config ConfigMaps, the
//! static pod manifests it rewrites on upgrade); kubespray's `roles/kubernetes/node/tasks/kubelet.yml`
//! and `roles/kubernetes/control-plane/tasks/kubeadm-setup.yml` (the files its variables become);
//! rke's `cluster/plan.go` (extra_args become flags); k3s's `pkg/util/args.go` (`*-arg` entries
//! become flags) and the RKE2/k3s configuration file locations in their docs.

use super::field::Component;
use crate::cause::Cause;

/// A place a setting was read from.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// A `KubeletConfiguration` file on its own.
    KubeletFile { field: String },
    /// The `KubeletConfiguration` document of a kubeadm configuration file.
    KubeadmKubelet { field: String },
    /// The `kubelet-config` ConfigMap.
    KubeletConfigMap { field: String, key: String },
    /// A command line, a flag list, or a `command:` list.
    CommandLine { component: Component, flag: String },
    /// kubeadm's `/var/lib/kubelet/kubeadm-flags.env`.
    KubeadmFlagsEnv { flag: String },
    /// Another environment file's variable.
    EnvFile {
        component: Component,
        flag: String,
        var: String,
    },
    /// A static pod manifest (or its mirror pod).
    StaticPod { component: Component, flag: String },
    /// kubeadm `ClusterConfiguration` extra arguments in a configuration file.
    KubeadmCluster { component: Component, flag: String },
    /// kubeadm `ClusterConfiguration` extra arguments in the `kubeadm-config` ConfigMap.
    KubeadmConfigMap { component: Component, flag: String },
    /// `nodeRegistration.kubeletExtraArgs` of an `InitConfiguration` or `JoinConfiguration`.
    KubeadmNode { flag: String, kind: String },
    /// A kubespray inventory variable.
    Kubespray { var: String, target: KubesprayTarget },
    /// rke `cluster.yml` `services.<service>.extra_args`.
    Rke {
        service: String,
        flag: String,
        component: Component,
    },
    /// An RKE2 or k3s `config.yaml` `*-arg` entry.
    Rke2 {
        key: String,
        flag: String,
        component: Component,
    },
}

/// What a kubespray variable becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KubesprayTarget {
    /// A field of `/etc/kubernetes/kubelet-config.yaml` (kubelet-config.v1beta1.yaml.j2).
    KubeletFile(&'static str),
    /// A flag in `/etc/kubernetes/kubeadm-config.yaml` (kubeadm-config.v1beta4.yaml.j2).
    Kubeadm(Component, &'static str),
}

impl KubesprayTarget {
    fn cause(self) -> Cause {
        match self {
            KubesprayTarget::KubeletFile(field) => Cause::new("import.kubespray.kubelet_file").text("field", field),
            KubesprayTarget::Kubeadm(component, flag) => Cause::new("import.kubespray.kubeadm")
                .text("section", section(component))
                .text("flag", flag)
                .text("component", component.name()),
        }
    }
}

/// The `ClusterConfiguration` section that holds a component's extra arguments.
pub fn section(c: Component) -> &'static str {
    match c {
        Component::ControllerManager => "controllerManager",
        Component::ApiServer => "apiServer",
        Component::Scheduler => "scheduler",
        Component::Etcd => "etcd.local",
        Component::Kubelet => "nodeRegistration.kubeletExtraArgs",
        Component::KubeProxy => "kubeProxy",
        // No setting of the simulation's own has a place in a cluster's files.
        Component::Simulation => "",
    }
}

impl Place {
    /// The sentence that says where the setting lives.
    pub fn cause(&self) -> Cause {
        match self {
            Place::KubeletFile { field } => Cause::new("import.where.kubelet_file").text("field", field),
            Place::KubeadmKubelet { field } => Cause::new("import.where.kubeadm_kubelet").text("field", field),
            Place::KubeletConfigMap { field, key } => Cause::new("import.where.kubelet_cm")
                .text("field", field)
                .text("key", key),
            Place::CommandLine { component, flag } => Cause::new("import.where.command_line")
                .text("component", component.name())
                .text("flag", flag),
            Place::KubeadmFlagsEnv { flag } => Cause::new("import.where.kubeadm_flags_env").text("flag", flag),
            Place::EnvFile { component, flag, var } => Cause::new("import.where.env_file")
                .text("component", component.name())
                .text("flag", flag)
                .text("var", var),
            Place::StaticPod { component, flag } => Cause::new("import.where.static_pod")
                .text("component", component.name())
                .text("flag", flag)
                .text("section", section(*component)),
            Place::KubeadmCluster { component, flag } => Cause::new("import.where.kubeadm_cluster")
                .text("component", component.name())
                .text("flag", flag)
                .text("section", section(*component)),
            Place::KubeadmConfigMap { component, flag } => Cause::new("import.where.kubeadm_cm")
                .text("component", component.name())
                .text("flag", flag)
                .text("section", section(*component)),
            Place::KubeadmNode { flag, kind } => Cause::new("import.where.kubeadm_node")
                .text("flag", flag)
                .text("kind", kind),
            Place::Kubespray { var, target } => Cause::new("import.where.kubespray")
                .text("var", var)
                .sub("target", target.cause()),
            Place::Rke {
                service,
                flag,
                component,
            } => Cause::new("import.where.rke")
                .text("service", service)
                .text("flag", flag)
                .text("component", component.name()),
            Place::Rke2 { key, flag, component } => Cause::new("import.where.rke2")
                .text("key", key)
                .text("flag", flag)
                .text("component", component.name()),
        }
    }
}
