#include "testbench/support/local_slurm.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "testbench/support/cli_run.h"
#include "testbench/sweep/external_command.h"

namespace hs::testing {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// A TCP port nobody listens on now (the kernel picks it); Slurm binds it moments later.
int free_port() {
  const int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (s < 0 || bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (s >= 0) close(s);
    throw std::runtime_error("LocalSlurm: cannot find a free port");
  }
  close(s);
  return ntohs(a.sin_port);
}

std::string user_name() {
  const passwd* pw = getpwuid(getuid());
  return pw ? pw->pw_name : "root";
}

std::string command_output(const std::string& cmd) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[1024];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace

pid_t LocalSlurm::spawn(const std::vector<std::string>& args, const std::string& log) {
  // Own process group: a Ctrl-C in the test's terminal does not reach the daemons; and they
  // die with the test even if it is killed (a CTest timeout) before it can stop them.
  sweep::StartOptions options;
  options.own_group = true;
  options.die_with_parent = true;
  const pid_t pid = sweep::start_logged(args, log, options);
  daemons_.push_back(pid);
  return pid;
}

LocalSlurm::LocalSlurm() {
  char tmpl[] = "/tmp/hybridsim-slurm-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("LocalSlurm: mkdtemp failed");
  dir_ = tmpl;
  // munged wants its socket's directory searchable by all and its key readable only by us.
  chmod(dir_.c_str(), 0755);
  for (const char* d : {"munge", "state", "spool"}) fs::create_directories(dir_ + "/" + d);
  chmod((dir_ + "/munge").c_str(), 0755);
  const std::string key = dir_ + "/munge/munge.key", sock = dir_ + "/munge/munge.sock";
  {
    std::ifstream urandom("/dev/urandom", std::ios::binary);
    std::string bytes(1024, '\0');
    urandom.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::ofstream(key, std::ios::binary) << bytes;
    chmod(key.c_str(), 0600);
  }
  conf_ = dir_ + "/slurm.conf";
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  std::ofstream(conf_) << fmt::format(
      "ClusterName=hybridsim-test\n"
      "SlurmctldHost=localhost(127.0.0.1)\n"
      "SlurmctldPort={ctld_port}\nSlurmdPort={slurmd_port}\n"
      "SlurmUser={user}\nSlurmdUser=root\n"
      "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={sock}\n"
      "StateSaveLocation={dir}/state\nSlurmdSpoolDir={dir}/spool\n"
      "SlurmctldPidFile={dir}/slurmctld.pid\nSlurmdPidFile={dir}/slurmd.pid\n"
      "SlurmctldLogFile={dir}/slurmctld.log\nSlurmdLogFile={dir}/slurmd.log\n"
      "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
      "SchedulerType=sched/backfill\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
      "MpiDefault=none\nReturnToService=2\nJobCompType=jobcomp/none\n"
      "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
      "SlurmctldTimeout=30\nSlurmdTimeout=30\nInactiveLimit=0\nMinJobAge=300\nKillWait=5\n"
      "Waittime=0\n"
      "NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n"
      "PartitionName={partition} Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
      fmt::arg("ctld_port", free_port()), fmt::arg("slurmd_port", free_port()),
      fmt::arg("sock", sock), fmt::arg("dir", dir_), fmt::arg("cpus", cpus),
      fmt::arg("partition", partition()), fmt::arg("user", user_name()));
  setenv("SLURM_CONF", conf_.c_str(), 1);

  try {
    spawn({"munged", "--foreground", "--force", "--socket=" + sock, "--key-file=" + key,
           "--log-file=" + dir_ + "/munge/munged.log", "--pid-file=" + dir_ + "/munge/munged.pid",
           "--seed-file=" + dir_ + "/munge/munged.seed"},
          dir_ + "/munged.out");
    for (auto t0 = Clock::now(); !fs::exists(sock);) {
      if (Clock::now() - t0 > std::chrono::seconds(15))
        throw std::runtime_error("munged did not start");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    spawn({"slurmctld", "-D", "-i", "-f", conf_}, dir_ + "/slurmctld.out");
    spawn({"slurmd", "-D", "-N", "localhost", "-f", conf_}, dir_ + "/slurmd.out");
    for (auto t0 = Clock::now();;) {
      const std::string state = command_output("sinfo --noheader --format=%t");
      if (state.rfind("idle", 0) == 0) break;
      if (Clock::now() - t0 > std::chrono::seconds(60)) {
        throw std::runtime_error("the node did not become idle (sinfo: " + state + ")");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  } catch (const std::exception& e) {
    const std::string text = fmt::format("LocalSlurm: {}\n{}", e.what(), logs());
    stop();
    throw std::runtime_error(text);
  }
}

LocalSlurm::~LocalSlurm() {
  stop();
}

void LocalSlurm::stop() {
  // slurmd first (it may still hold job steps), then the controller, then munged.
  for (auto it = daemons_.rbegin(); it != daemons_.rend(); ++it) {
    kill(*it, SIGTERM);
    int status = 0;
    bool gone = false;
    for (auto t0 = Clock::now(); Clock::now() - t0 < std::chrono::seconds(10);) {
      if (waitpid(*it, &status, WNOHANG) == *it) {
        gone = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!gone) {
      kill(*it, SIGKILL);
      waitpid(*it, &status, 0);
    }
  }
  daemons_.clear();
  if (!dir_.empty() && !std::getenv("HYBRIDSIM_KEEP_SLURM_DIR")) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

std::string LocalSlurm::logs() const {
  std::string out;
  for (const char* f :
       {"munged.out", "slurmctld.out", "slurmd.out", "slurmctld.log", "slurmd.log"}) {
    const std::string text = file_text(dir_ + "/" + f);
    if (!text.empty())
      out += fmt::format("--- {} ---\n{}\n", f,
                         text.substr(text.size() > 4000 ? text.size() - 4000 : 0));
  }
  return out;
}

}  // namespace hs::testing
