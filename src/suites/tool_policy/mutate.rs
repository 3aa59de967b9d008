//! What `conform explore` knows about tool-policy inputs: the tool names and
//! modes the policy branches on, and commands the deny patterns look for.

use crate::suite_api::MutationProfile;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &[],
    order_members: &[],
    words: &[
        "Bash",
        "Read",
        "Write",
        "Edit",
        "Glob",
        "Grep",
        "WebFetch",
        "Task",
        "planner",
        "implementation",
        "rm -rf /",
        "git push --force",
        "sudo rm -rf ~",
        "cat /etc/passwd",
        "ls",
        "",
    ],
    mutators: &[],
    unpinnable_rules: &[],
};
