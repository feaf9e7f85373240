// Package works names the works vigil's protocols follow, as their
// descriptions' Source cites them, so that each description cites a work
// by name and every description spells it alike. The bibliography, with
// the short forms the scenarios' Why use, is the package doc of protocols.
package works

const (
	// Garcia is Garcia-Molina's paper: the bully and invitation algorithms.
	Garcia = "H. Garcia-Molina, Elections in a Distributed Computing System (IEEE Trans. Computers, 1982)"
	// Kesden is Kesden's lecture on coordinator selection.
	Kesden = "G. Kesden, Coordinator Selection, 14-736 Distributed Systems, lecture 8 (Carnegie Mellon, 2019)"
	// Anthony is Anthony's emergent election, as the Elections notes
	// present it.
	Anthony = "R. J. Anthony, emergent election (ICAC 2004, doi:10.1109/ICAC.2004.1301356), as presented in the lecture notes Elections"
	// Silberschatz is Silberschatz, Galvin and Gagne's chapter on
	// distributed coordination.
	Silberschatz = "A. Silberschatz, P. B. Galvin and G. Gagne, Operating System Concepts, ch. 18, Distributed Coordination"
	// Vlassov is Vlassov and Montelius' lecture notes after Coulouris et
	// al.
	Vlassov = "V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201 Distributed Systems, KTH), after G. Coulouris et al., Distributed Systems: Concepts and Design, ch. 15"
	// LeaderElection is the Leader Election notes.
	LeaderElection = "Distributed Coordination: Leader Election (lecture notes after V. K. Garg, Elements of Distributed Computing, and S. Ghosh, Distributed Systems)"
	// Awerbuch is the synchronizers' work, as the Leader Election notes
	// present it.
	Awerbuch = "B. Awerbuch, Complexity of Network Synchronization (J. ACM 32(4), 1985), as the Leader Election notes present it (section Synchronizers)"
	// Elections is the lecture notes Elections, whose section "Work
	// schedule" the work-sharing protocols follow.
	Elections = "the lecture notes Elections, \"Work schedule\""
	// Lamport is Lamport's Paxos Made Simple: single-decree Paxos.
	Lamport = "L. Lamport, Paxos Made Simple (ACM SIGACT News 32(4), 2001)"
	// Generals is Lamport, Shostak and Pease's paper: the oral-messages
	// algorithm OM(m).
	Generals = "L. Lamport, R. Shostak and M. Pease, The Byzantine Generals Problem (ACM TOPLAS 4(3), 1982)"
)
